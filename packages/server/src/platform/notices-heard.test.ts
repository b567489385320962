import { describe, expect, it } from 'vitest'
import { VirtualClock } from '../../test/support/virtual-clock.js'
import { EVERY_KEY } from './change-notices.js'
import { NOTICE_WAIT_MS, NoticesHeard } from './notices-heard.js'

/** Whether `promise` settled by now (after the microtasks queued so far). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false
  void promise.then(() => {
    done = true
  })
  await new Promise((resolve) => setImmediate(resolve))
  return done
}

describe('NoticesHeard', () => {
  it('counts the notices of each key, those of EVERY_KEY for every key', () => {
    const heard = new NoticesHeard(new VirtualClock())
    heard.hear('alice')
    heard.hear('alice')
    heard.hear(EVERY_KEY)
    expect([heard.count('alice'), heard.count('bob')]).toEqual([3, 1])
  })

  it('resolves at once when a notice came past the count, else at the next notice of the key', async () => {
    const heard = new NoticesHeard(new VirtualClock())
    heard.hear('alice')
    expect(await settled(heard.after('alice', 0))).toBe(true)
    const waiting = heard.after('alice', 1)
    heard.hear('bob')
    expect(await settled(waiting)).toBe(false)
    heard.hear('alice')
    expect(await settled(waiting)).toBe(true)
    const everything = heard.after('carol', heard.count('carol'))
    heard.hear(EVERY_KEY)
    expect(await settled(everything)).toBe(true)
  })

  it('gives up waiting after NOTICE_WAIT_MS: the node that stored the change may have died', async () => {
    const clock = new VirtualClock()
    const heard = new NoticesHeard(clock)
    const waiting = heard.after('alice', 0)
    clock.advance(NOTICE_WAIT_MS - 1)
    expect(await settled(waiting)).toBe(false)
    clock.advance(1)
    expect(await settled(waiting)).toBe(true)
  })
})
