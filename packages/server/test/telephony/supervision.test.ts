/**
 * Supervision groups in the call engine (docs/groups.md, "Supervision groups"): each supervisor of a user is
 * told, after the command's own events, when the user's state changes; nobody else, and nothing when it does not.
 */
import { describe, expect, it } from 'vitest'
import type { PlatformEvent } from '../../src/platform/events.js'
import type { TelephonyDirectory } from '../../src/platform/telephony/telephony-directory.js'
import { FeatureWorld, featureDirectory } from './support.js'

/** carol and dave supervise alice in one group; dave alone supervises bob in another. */
const supervised: TelephonyDirectory = {
  ...featureDirectory,
  supervisorsOf: (loginName) =>
    ({
      alice: [{ groupId: 'supervision-front', supervisors: ['carol', 'dave'] }],
      bob: [{ groupId: 'supervision-back', supervisors: ['dave'] }],
    })[loginName] ?? [],
}

const supervision = (events: readonly PlatformEvent[]) =>
  events.filter((event) => event.eventName === 'OnSupervisedUpdated')

describe('supervision groups', () => {
  it("tells each supervisor of the users whose state changed, after the command's events", () => {
    const w = new FeatureWorld({}, supervised)
    const callRef = w.call('alice', '1002')
    expect(supervision(w.run({ type: 'answer', loginName: 'bob', callRef }).events)).toEqual([
      {
        eventName: 'OnSupervisedUpdated',
        loginName: 'carol',
        groupId: 'supervision-front',
        supervised: { loginName: 'alice', state: 'BUSY' },
      },
      {
        eventName: 'OnSupervisedUpdated',
        loginName: 'dave',
        groupId: 'supervision-front',
        supervised: { loginName: 'alice', state: 'BUSY' },
      },
      {
        eventName: 'OnSupervisedUpdated',
        loginName: 'dave',
        groupId: 'supervision-back',
        supervised: { loginName: 'bob', state: 'BUSY' },
      },
    ])
    const released = w.run({ type: 'release', loginName: 'alice', callRef })
    const names = released.events.map((event) => event.eventName)
    expect(names.indexOf('OnSupervisedUpdated')).toBeGreaterThan(
      names.lastIndexOf('OnUserStateModified'),
    )
    expect(supervision(released.events).map((event) => event['supervised'])).toEqual([
      { loginName: 'alice', state: 'FREE' },
      { loginName: 'alice', state: 'FREE' },
      { loginName: 'bob', state: 'FREE' },
    ])
  })

  it('sends nothing while no supervised state changes (a call only ringing)', () => {
    const w = new FeatureWorld({}, supervised)
    const placed = w.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    })
    expect(supervision(placed.events)).toEqual([])
  })
})
