/**
 * Reconnect (operations/reconnect.ts; docs/call-model.md, "Consultation, transfer and conference"): the user
 * leaves its enquiry call, answered or still ringing, and takes its held call back, in that order; the events
 * each involved user receives, the resulting state, and the refusals that change nothing.
 */
import { describe, expect, it } from 'vitest'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import { connections, seen, World } from './support.js'

/** alice (1001) talks to bob (1002), puts him on hold by calling carol (1003); carol answers when asked. */
function consulting(world: World, answered: boolean): { held: string; enquiry: string } {
  const held = world.call('alice', '1002', 'bob')
  const enquiry = world.call('alice', '1003', answered ? 'carol' : undefined)
  return { held, enquiry }
}

describe('reconnect', () => {
  it('releases the answered enquiry call, then retrieves the held one', () => {
    const world = new World()
    const { held, enquiry } = consulting(world, true)
    const result = world.run({
      type: 'reconnect',
      loginName: 'alice',
      callRef: held,
      deviceId: '1001',
      enquiryCallRef: enquiry,
    })
    expect(seen(result.events, 'alice')).toEqual([
      { eventName: 'OnCallRemoved', callRef: enquiry },
      // Without the enquiry call the held one offers no transfer or merge any more.
      { eventName: 'OnCallModified', callRef: held, callState: 'HELD' },
      { eventName: 'OnCallModified', callRef: held, callState: 'ACTIVE', legs: ['1001:ACTIVE'] },
    ])
    expect(seen(result.events, 'carol')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef: enquiry,
        callState: 'RELEASING',
        legs: ['1003:RELEASING'],
        removed: ['1001'],
      },
      { eventName: 'OnCallRemoved', callRef: enquiry },
      { eventName: 'OnUserStateModified', state: 'FREE' },
    ])
    // Participants carry no state: bob does not see alice take the call back.
    expect(seen(result.events, 'bob')).toEqual([])
    expect(result.events.map((event) => event.loginName)).toEqual([
      'alice',
      'carol',
      'alice',
      'carol',
      'alice',
      'carol',
    ])
    expect(allCalls(result.state).map((call) => call.callRef)).toEqual([held])
    expect(connections(result.state, held)).toEqual(['1001:ACTIVE', '1002:ACTIVE'])
    const capabilities = result.events.at(-2)?.['callData'] as { capabilities?: object }
    expect(capabilities.capabilities).toEqual({ terminate: true })
  })

  it('cancels an enquiry call still ringing: the consulted party stops ringing, its timeout goes', () => {
    const world = new World()
    const { held, enquiry } = consulting(world, false)
    expect(world.state.timers.map((timer) => timer.command.type)).toEqual(['ringingTimeout'])
    const result = world.run({
      type: 'reconnect',
      loginName: 'alice',
      callRef: held,
      deviceId: '1001',
      enquiryCallRef: enquiry,
    })
    expect(seen(result.events, 'alice')).toEqual([
      { eventName: 'OnCallRemoved', callRef: enquiry },
      { eventName: 'OnCallModified', callRef: held, callState: 'ACTIVE', legs: ['1001:ACTIVE'] },
    ])
    expect(seen(result.events, 'carol')).toEqual([
      {
        eventName: 'OnCallModified',
        callRef: enquiry,
        callState: 'RELEASING',
        legs: ['1003:RELEASING'],
        removed: ['1001'],
      },
      { eventName: 'OnCallRemoved', callRef: enquiry },
    ])
    expect(allCalls(result.state).map((call) => call.callRef)).toEqual([held])
    expect(connections(result.state, held)).toEqual(['1001:ACTIVE', '1002:ACTIVE'])
    expect(result.state.timers).toEqual([])
  })

  it('leaves an enquiry conference going without the user (PARTICIPANT_LEFT)', () => {
    const world = new World()
    // dave (MULTIMEDIA, 1004) talks to alice, consults bob, then adds carol: the enquiry is a conference.
    const held = world.call('dave', '1001', 'alice')
    const enquiry = world.call('dave', '1002', 'bob')
    world.run({ type: 'addParticipant', loginName: 'dave', callRef: enquiry, callee: '1003' })
    world.run({ type: 'answer', loginName: 'carol', callRef: enquiry })
    const result = world.run({
      type: 'reconnect',
      loginName: 'dave',
      callRef: held,
      deviceId: '1004',
      enquiryCallRef: enquiry,
    })
    expect(seen(result.events, 'dave')).toEqual([
      { eventName: 'OnCallRemoved', callRef: enquiry, cause: 'PARTICIPANT_LEFT' },
      { eventName: 'OnCallModified', callRef: held, cause: 'PARTICIPANT_LEFT', callState: 'HELD' },
      { eventName: 'OnCallModified', callRef: held, callState: 'ACTIVE', legs: ['1004:ACTIVE'] },
    ])
    for (const user of ['bob', 'carol'])
      expect(seen(result.events, user)).toEqual([
        {
          eventName: 'OnCallModified',
          callRef: enquiry,
          cause: 'PARTICIPANT_LEFT',
          callState: 'ACTIVE',
          removed: ['1004'],
        },
      ])
    expect(seen(result.events, 'alice')).toEqual([])
    expect(connections(result.state, enquiry)).toEqual(['1002:ACTIVE', '1003:ACTIVE'])
    expect(connections(result.state, held)).toEqual(['1004:ACTIVE', '1001:ACTIVE'])
  })

  it('is refused, changing nothing, for unknown calls, the same call twice, calls in the wrong states', () => {
    const world = new World()
    const { held, enquiry } = consulting(world, true)
    const reconnect = (
      loginName: string,
      callRef: string,
      enquiryCallRef: string,
      deviceId = '1001',
    ) => ({ type: 'reconnect', loginName, callRef, deviceId, enquiryCallRef }) as const
    world.refuses(reconnect('alice', 'ffffffffffffffff', enquiry), 'NOT_FOUND')
    world.refuses(reconnect('alice', held, 'ffffffffffffffff'), 'NOT_FOUND')
    world.refuses(reconnect('alice', held, held), 'BAD_PARAMETER')
    // The held call first, the enquiry call in the body: not the other way round.
    world.refuses(reconnect('alice', enquiry, held), 'NOT_EXPECTED')
    // No leg on that device in the calls.
    world.refuses(reconnect('alice', held, enquiry, '1002'), 'NOT_FOUND')
    // bob is ACTIVE in the held call (it is alice who holds it) and not in the enquiry call.
    world.refuses(reconnect('bob', held, enquiry, '1002'), 'NOT_EXPECTED')
    // dave's call to bob is not alice's.
    const other = world.call('dave', '1002')
    world.refuses(reconnect('alice', held, other), 'NOT_FOUND')
  })

  it('is refused without a held call, and while the device talks in a third call', () => {
    const world = new World()
    const single = world.call('alice', '1002', 'bob')
    const ringing = world.call('carol', '1004')
    world.refuses(
      {
        type: 'reconnect',
        loginName: 'carol',
        callRef: ringing,
        deviceId: '1003',
        enquiryCallRef: single,
      },
      'NOT_EXPECTED',
    )
    // alice holds bob and calls carol (still ringing), then answers dave's call on the same device.
    const other = new World()
    const { held, enquiry } = consulting(other, false)
    const third = other.call('dave', '1001', 'alice')
    expect(connections(other.state, third)).toEqual(['1004:ACTIVE', '1001:ACTIVE'])
    other.refuses(
      {
        type: 'reconnect',
        loginName: 'alice',
        callRef: held,
        deviceId: '1001',
        enquiryCallRef: enquiry,
      },
      'NOT_EXPECTED',
    )
  })
})
