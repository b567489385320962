import { describe, expect, it } from 'vitest'
import type { UserAccount } from '../platform/directory/directory.js'
import { PlatformError } from '../platform/platform-error.js'
import type { TelephonyQueries } from '../platform/telephony/telephony-queries.js'
import { ownCallCaughtUp, type TelephonyActor } from './telephony-access.js'

/** Queries that know `calls` (callRef → its users); only what ownCall reads. */
function queries(calls: Record<string, string[]>): TelephonyQueries {
  return {
    isInCall: (loginName: string, callRef: string) => calls[callRef]?.includes(loginName) ?? false,
    hasCall: (callRef: string) => calls[callRef] !== undefined,
  } as unknown as TelephonyQueries
}

/** Alice's actor on a node whose state shows `before`, and `after` once it caught up (if it can). */
function actor(before: Record<string, string[]>, after?: Record<string, string[]>) {
  const telephony = {
    queries: queries(before),
    catchUps: 0,
    ...(after !== undefined && {
      catchUp: async () => {
        telephony.catchUps += 1
        telephony.queries = queries(after)
      },
    }),
  }
  const acting: TelephonyActor = {
    user: {} as UserAccount,
    loginName: 'alice',
    queries: telephony.queries,
    telephony,
  }
  return { acting, telephony }
}

describe('ownCallCaughtUp', () => {
  it("answers at once for a call this node shows as the user's, without catching up", async () => {
    const { acting, telephony } = actor({ c1: ['alice'] }, {})
    expect(await ownCallCaughtUp(acting, 'c1')).toBe('c1')
    expect(telephony.catchUps).toBe(0)
  })

  it('catches up when the call is not shown yet, then finds it (a replica behind the event)', async () => {
    const { acting, telephony } = actor({}, { c1: ['alice', 'bob'] })
    expect(await ownCallCaughtUp(acting, 'c1')).toBe('c1')
    expect(telephony.catchUps).toBe(1)
    expect(acting.queries.isInCall('alice', 'c1')).toBe(true)
  })

  it('still refuses after catching up: 404 for no such call, NOT_ALLOWED for a call of others', async () => {
    await expect(ownCallCaughtUp(actor({}, {}).acting, 'c9')).rejects.toMatchObject({
      type: 'NOT_FOUND',
    })
    await expect(ownCallCaughtUp(actor({}, { c2: ['bob'] }).acting, 'c2')).rejects.toBeInstanceOf(
      PlatformError,
    )
    await expect(ownCallCaughtUp(actor({}, { c2: ['bob'] }).acting, 'c2')).rejects.toMatchObject({
      type: 'NOT_ALLOWED',
    })
  })

  it('refuses at once where nothing can catch up (the engine runs here)', async () => {
    await expect(ownCallCaughtUp(actor({}).acting, 'c1')).rejects.toMatchObject({
      type: 'NOT_FOUND',
    })
  })
})
