/**
 * A Lua script run by its SHA1 (EVALSHA), sent whole (EVAL) only when Redis does not know it yet (after a
 * restart or SCRIPT FLUSH): the scripts of the cluster's adapters are a few hundred bytes each, run on every
 * append. Keys are written without the key prefix, which ioredis adds to a script's KEYS as to any key.
 */
import { createHash } from 'node:crypto'
import type { ChainableCommander, Redis } from 'ioredis'

type Argument = string | number

export class LuaScript {
  readonly sha: string

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex')
  }

  /** Runs the script once. */
  async run(client: Redis, keys: readonly string[], args: readonly Argument[]): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args)
    } catch (error) {
      if (!isNoScript(error)) throw error
      return client.eval(this.source, keys.length, ...keys, ...args)
    }
  }

  /**
   * Runs the script once for each of `calls`, in one pipeline (one round trip); the calls Redis refused for
   * want of the script (they did not run) are sent again whole. Resolves to the results in order.
   */
  async runMany(
    client: Redis,
    calls: readonly { keys: readonly string[]; args: readonly Argument[] }[],
  ): Promise<unknown[]> {
    const pipeline: ChainableCommander = client.pipeline()
    for (const { keys, args } of calls) pipeline.evalsha(this.sha, keys.length, ...keys, ...args)
    const replies = (await pipeline.exec()) ?? []
    return Promise.all(
      calls.map(async (call, index) => {
        const [error, result] = replies[index] ?? [new Error('no reply in the pipeline'), null]
        if (error === null) return result
        if (!isNoScript(error)) throw error
        return client.eval(this.source, call.keys.length, ...call.keys, ...call.args)
      }),
    )
  }
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT')
}
