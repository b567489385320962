/** The cluster's Redis client: every key of every command under the prefix, scripts' keys included. */
import type { Socket } from 'node:net'
import { expect, it } from 'vitest'
import { describeWithRedis } from '../../../test/support/redis.js'

/** Counts the writes the socket hands to the system (one each, whether of one chunk or of several). */
function countWrites(socket: Socket): { count: number } {
  const counted = { count: 0 }
  const target = socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>
  for (const method of ['_write', '_writev'] as const) {
    const original = target[method].bind(socket)
    target[method] = (...args: unknown[]) => {
      counted.count++
      return original(...args)
    }
  }
  return counted
}

describeWithRedis('connectRedis', (redis) => {
  it('writes every key, and every key a script names, under the prefix', async () => {
    const client = await redis.client()
    await client.set('plain', '1')
    await client.eval("return redis.call('SET', KEYS[1], ARGV[1])", 1, 'scripted', '2')

    expect(await client.get('plain')).toBe('1')
    expect(await redis.keys()).toStrictEqual(['plain', 'scripted'])
  })

  it('sends the commands of one turn in one write, in the order they were sent', async () => {
    const client = await redis.client()
    const writes = countWrites(client.stream as Socket)
    const first = client.incr('turn-counter')
    const pipelined = client.pipeline().incr('turn-counter').incr('turn-counter').exec()
    const transaction = client.multi().incr('turn-counter').exec()
    const last = client.incr('turn-counter')

    expect(await Promise.all([first, pipelined, transaction, last])).toStrictEqual([
      1,
      [
        [null, 2],
        [null, 3],
      ],
      [[null, 4]],
      5,
    ])
    expect(writes.count).toBe(1)
  })

  it('sends a command of a later turn in a write of its own, without waiting for another', async () => {
    const client = await redis.client()
    await client.set('turn-key', 'a')
    const writes = countWrites(client.stream as Socket)
    await new Promise((resolve) => setImmediate(resolve))

    expect(await client.get('turn-key')).toBe('a')
    expect(await client.append('turn-key', 'b')).toBe(2)
    expect(writes.count).toBe(2)
  })
})
