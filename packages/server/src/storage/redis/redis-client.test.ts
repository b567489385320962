/** The cluster's Redis client: every key of every command under the prefix, scripts' keys included. */
import { expect, it } from 'vitest'
import { describeWithRedis } from '../../../test/support/redis.js'

describeWithRedis('connectRedis', (redis) => {
  it('writes every key, and every key a script names, under the prefix', async () => {
    const client = await redis.client()
    await client.set('plain', '1')
    await client.eval("return redis.call('SET', KEYS[1], ARGV[1])", 1, 'scripted', '2')

    expect(await client.get('plain')).toBe('1')
    expect(await redis.keys()).toStrictEqual(['plain', 'scripted'])
  })
})
