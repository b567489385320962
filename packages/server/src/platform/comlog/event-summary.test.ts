/** The event summary's refreshes: published only when a counter changed; a failed one is reported, not lost silently. */
import { describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../events.js'
import { EventSummaryService } from './event-summary.js'

function summaryWith(missed: () => Promise<number>) {
  const published: PlatformEvent[] = []
  const failures: [string, string][] = []
  const service = new EventSummaryService(
    { missedCalls: missed, callbackRequests: () => 0 },
    { publish: (event) => published.push(event) },
    (error, loginName) => failures.push([loginName, (error as Error).message]),
  )
  return { service, published, failures }
}

describe('EventSummaryService', () => {
  it('publishes a changed summary once, and nothing when it is the same', async () => {
    const { service, published, failures } = summaryWith(async () => 1)
    await service.changed('bob')
    await service.changed('bob')
    expect(published).toStrictEqual([
      {
        eventName: 'OnEventSummaryUpdated',
        loginName: 'bob',
        eventSummary: expect.objectContaining({ missedCallsNb: 1, eventWaiting: true }),
      },
    ])
    expect(failures).toStrictEqual([])
  })

  it('reports a refresh whose counter cannot be read, publishes nothing, and publishes at the next change', async () => {
    let fail = true
    const { service, published, failures } = summaryWith(async () => {
      if (fail) throw new Error('database locked')
      return 2
    })
    await service.changed('bob')
    expect(failures).toStrictEqual([['bob', 'database locked']])
    expect(published).toStrictEqual([])
    fail = false
    await service.changed('bob')
    expect(published.map((event) => event['eventSummary'])).toMatchObject([{ missedCallsNb: 2 }])
  })
})
