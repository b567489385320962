/**
 * A Lua script of a Redis adapter: what must read and write a key in one step (no other node's command
 * between the two) runs as a script. It is sent by its SHA1 (EVALSHA), and in full only when the server does
 * not know it yet (NOSCRIPT: first use, or after a restart or SCRIPT FLUSH). Keys are named without the
 * cluster's prefix, as in every command: the client adds it to the script's KEYS (redis-client.ts).
 */
import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'

export class RedisScript {
  readonly #lua: string
  readonly #sha: string

  constructor(lua: string) {
    this.#lua = lua
    this.#sha = createHash('sha1').update(lua).digest('hex')
  }

  /** Runs the script on `keys` with `args`; resolves to what the script returns. */
  async run(
    client: Redis,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> {
    try {
      return await client.evalsha(this.#sha, keys.length, ...keys, ...args)
    } catch (error) {
      if (!isNoScript(error)) throw error
      return client.eval(this.#lua, keys.length, ...keys, ...args)
    }
  }
}

/** Whether Redis answered that it does not know the script. */
function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT')
}
