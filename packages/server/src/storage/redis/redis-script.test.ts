/** RedisScript: sends itself to a server that lacks it, runs by SHA1, keys under the prefix. */
import { createHash, randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { describeWithRedis } from '../../../test/support/redis.js'
import { RedisScript } from './redis-script.js'

describeWithRedis('RedisScript', (redis) => {
  it('sends itself to a server that never saw it, then runs from the server cache', async () => {
    const client = await redis.client()
    // A comment of its own: no server has this script (the cache is the whole server's, never flushed here).
    const lua = `-- ${randomBytes(8).toString('hex')}\nreturn redis.call('APPEND', KEYS[1], ARGV[1])`
    const sha = createHash('sha1').update(lua).digest('hex')
    const append = new RedisScript(lua)

    expect(await client.script('EXISTS', sha)).toStrictEqual([0])
    expect(await append.run(client, ['script-log'], ['a'])).toBe(1)
    expect(await client.script('EXISTS', sha)).toStrictEqual([1])
    expect(await append.run(client, ['script-log'], ['b'])).toBe(2)
    expect(await client.get('script-log')).toBe('ab')
    expect(await redis.keys()).toStrictEqual(['script-log'])
  })

  it('passes on the errors the script raises', async () => {
    const client = await redis.client()
    const failing = new RedisScript("return redis.error_reply('refused by the script')")
    await expect(failing.run(client, [], [])).rejects.toThrow(/refused by the script/)
  })
})
