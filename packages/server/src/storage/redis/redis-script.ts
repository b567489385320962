/**
 * A Lua script of a Redis adapter: what must read and write a key in one step (no other node's command
 * between the two) runs as a script. It is sent by its SHA1 (EVALSHA), and in full only when the server does
 * not know it yet (NOSCRIPT: first use, or after a restart or SCRIPT FLUSH). Keys are named without the
 * cluster's prefix, as in every command: the client adds it to the script's KEYS (redis-client.ts).
 * ioredis's own `defineCommand` does the same but adds a method, by name, to the client every adapter shares,
 * untyped; a script object of each adapter's own keeps the names apart and the types checked.
 */
import { createHash } from 'node:crypto'
import type { ChainableCommander, Redis } from 'ioredis'

type Argument = string | number

export class RedisScript {
  readonly #lua: string
  readonly #sha: string

  constructor(lua: string) {
    this.#lua = lua
    this.#sha = createHash('sha1').update(lua).digest('hex')
  }

  /** Runs the script on `keys` with `args`; resolves to what the script returns. */
  async run(client: Redis, keys: readonly string[], args: readonly Argument[]): Promise<unknown> {
    try {
      return await client.evalsha(this.#sha, keys.length, ...keys, ...args)
    } catch (error) {
      if (!isNoScript(error)) throw error
      return client.eval(this.#lua, keys.length, ...keys, ...args)
    }
  }

  /**
   * Runs the script as `run` does, but sent whole (`EVAL`) and at once: Redis runs it in the place it was
   * sent in on the connection, even when it does not know the script, where `run` sends it again after a
   * NOSCRIPT answer, behind what was sent meanwhile. For a script whose place among a connection's commands
   * matters (the engine's feed entry before the appends of its events); Redis caches it as for `EVALSHA`.
   */
  runInPlace(client: Redis, keys: readonly string[], args: readonly Argument[]): Promise<unknown> {
    return client.eval(this.#lua, keys.length, ...keys, ...args)
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
    for (const { keys, args } of calls) pipeline.evalsha(this.#sha, keys.length, ...keys, ...args)
    const replies = (await pipeline.exec()) ?? []
    return Promise.all(
      calls.map(async (call, index) => {
        const [error, result] = replies[index] ?? [new Error('no reply in the pipeline'), null]
        if (error === null) return result
        if (!isNoScript(error)) throw error
        return client.eval(this.#lua, call.keys.length, ...call.keys, ...call.args)
      }),
    )
  }
}

/** Whether Redis answered that it does not know the script. */
function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT')
}
