/**
 * Telephony over real sockets (issue 5 acceptance): two or three applications, each logged in as a demo
 * user with its own telephony subscription and open event channel, drive calls through the REST API on a
 * loopback listener. Each scenario asserts, step by step, the exact events every channel receives and their
 * key fields, against docs/call-model.md and wire facts 6, and ends with the users' calls gone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Party, TelephonyScenario } from './telephony-parties.js'

let scenario: TelephonyScenario
beforeEach(async () => {
  scenario = await TelephonyScenario.start()
})
afterEach(() => scenario.close())

const BUSY = { eventName: 'OnUserStateModified', state: 'BUSY' }
const FREE = { eventName: 'OnUserStateModified', state: 'FREE' }
const VOICEMAIL = '8000'

/** PartyInfo of a demo user as calls show it. */
const ALICE = {
  id: { loginName: 'alice', phoneNumber: '1001' },
  firstName: 'Alice',
  lastName: 'Martin',
  type: { main: 'USER' },
  vcardPath: 'alice.vcf',
}
const BOB = {
  id: { loginName: 'bob', phoneNumber: '1002' },
  firstName: 'Bob',
  lastName: 'Durand',
  type: { main: 'USER' },
  vcardPath: 'bob.vcf',
}
const KARIM = {
  id: { loginName: 'karim', phoneNumber: '1011' },
  firstName: 'Karim',
  lastName: 'Benali',
  type: { main: 'USER' },
  vcardPath: 'karim.vcf',
}

/** Every party's GET /telephony/calls is empty. */
async function expectNoCalls(...parties: Party[]) {
  for (const party of parties) expect(await party.callRefs(), party.loginName).toEqual([])
}

/** Nothing more arrives on any channel. */
const expectQuiet = (...parties: Party[]) =>
  Promise.all(parties.map((party) => party.expectQuiet()))

/** alice calls bob (autoAnswer) and bob answers; both channels checked; returns the callRef. */
async function aliceCallsBobWhoAnswers(alice: Party, bob: Party): Promise<string> {
  const callRef = await alice.makeCall('1002')
  const [created] = await alice.expectEvents([
    {
      eventName: 'OnCallCreated',
      callRef,
      callState: 'RINGING_OUTGOING',
      legs: ['1001:RINGING_OUTGOING'],
      participants: ['1002'],
    },
  ])
  expect(created?.['participants']).toEqual([{ participantId: '1002', identity: BOB }])
  const [ringing] = await bob.expectEvents([
    {
      eventName: 'OnCallCreated',
      callRef,
      callState: 'RINGING_INCOMING',
      legs: ['1002:RINGING_INCOMING'],
      participants: ['1001'],
    },
  ])
  expect(ringing).toMatchObject({
    callData: { initialCalled: { id: { phoneNumber: '1002' } } },
    participants: [{ participantId: '1001', identity: ALICE }],
    legs: [{ deviceId: '1002', capabilities: { answer: true } }],
  })

  await bob.answer(callRef)
  const [aliceActive] = await alice.expectEvents([
    { eventName: 'OnCallModified', callRef, callState: 'ACTIVE', legs: ['1001:ACTIVE'] },
    BUSY,
  ])
  // Wire facts 6: an answer's OnCallModified has every other list present, empty.
  expect(aliceActive).toMatchObject({
    addedLegs: [],
    removedLegs: [],
    modifiedParticipants: [],
    addedParticipants: [],
    removedParticipantIds: [],
  })
  await bob.expectEvents([
    { eventName: 'OnCallModified', callRef, callState: 'ACTIVE', legs: ['1002:ACTIVE'] },
    BUSY,
  ])
  return callRef
}

/**
 * The common start of transfer and merge: alice and bob talk, then alice calls karim (a consultation call:
 * the first call goes HELD) and karim answers. Returns the first (held) and second (active) callRefs.
 */
async function consultation(alice: Party, bob: Party, karim: Party) {
  const first = await aliceCallsBobWhoAnswers(alice, bob)
  const second = await alice.makeCall('1011')
  expect(second).not.toBe(first)
  const [held] = await alice.expectEvents([
    { eventName: 'OnCallModified', callRef: first, callState: 'HELD', legs: ['1001:HELD'] },
    {
      eventName: 'OnCallCreated',
      callRef: second,
      callState: 'RINGING_OUTGOING',
      legs: ['1001:RINGING_OUTGOING'],
      participants: ['1011'],
    },
  ])
  expect(held?.['modifiedLegs']).toEqual([
    { deviceId: '1001', state: 'HELD', capabilities: { drop: true, retrieve: true } },
  ])
  await karim.expectEvents([
    {
      eventName: 'OnCallCreated',
      callRef: second,
      callState: 'RINGING_INCOMING',
      legs: ['1011:RINGING_INCOMING'],
      participants: ['1001'],
    },
  ])

  await karim.answer(second)
  // The held call changes only by its capabilities: transfer and merge, now that one call is ACTIVE and
  // the other HELD on the device (call-model.md, "Capabilities"). Alice stays BUSY: no user state event.
  const [active, heldAgain] = await alice.expectEvents([
    { eventName: 'OnCallModified', callRef: second, callState: 'ACTIVE', legs: ['1001:ACTIVE'] },
    { eventName: 'OnCallModified', callRef: first, callState: 'HELD' },
  ])
  expect(active?.['callData']).toMatchObject({
    capabilities: { transfer: true, merge: true, blindTransfer: true },
  })
  expect(heldAgain?.['callData']).toMatchObject({ capabilities: { transfer: true, merge: true } })
  await karim.expectEvents([
    { eventName: 'OnCallModified', callRef: second, callState: 'ACTIVE', legs: ['1011:ACTIVE'] },
    BUSY,
  ])
  // Bob was told nothing of the hold: participants carry no MediaState (call-model.md, last section).
  return { first, second }
}

describe('an internal call', () => {
  it('placed by alice, answered by bob, released by alice: RELEASING then the end for bob; both FREE', async () => {
    const [alice, bob] = await scenario.parties('alice', 'bob')
    const callRef = await aliceCallsBobWhoAnswers(alice, bob)
    expect(await alice.callRefs()).toEqual([callRef])
    expect(await bob.callRefs()).toEqual([callRef])

    const released = await alice.request('DELETE', `/calls/${callRef}`)
    expect(released.status).toBe(204)
    const [removed] = await alice.expectEvents([{ eventName: 'OnCallRemoved', callRef }, FREE])
    expect(removed).toEqual({
      eventName: 'OnCallRemoved',
      loginName: 'alice',
      callRef,
      deviceCapabilities: [],
    })
    const [releasing] = await bob.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RELEASING',
        legs: ['1002:RELEASING'],
        removedParticipantIds: ['1001'],
      },
      { eventName: 'OnCallRemoved', callRef },
      FREE,
    ])
    expect(releasing?.['modifiedLegs']).toEqual([
      { deviceId: '1002', state: 'RELEASING', capabilities: { drop: true } },
    ])
    // Both spellings of the removed lists: the wire's (Java, C#) and the Node SDK's, same values.
    expect(releasing).toMatchObject({
      removedLegs: [],
      removedLeg: [],
      removedParticipantIds: ['1001'],
      removedParticipants: ['1001'],
    })

    await expectNoCalls(alice, bob)
    expect((await bob.request('GET', `/calls/${callRef}`)).status).toBe(404)
    await expectQuiet(alice, bob)
  })
})

describe('a call from an outside party', () => {
  it.each([
    ['the public number', '+33155661002'],
    ['the extension', '1002'],
  ])('to %s: bob answers, the outside party hangs up; alice hears nothing of it', async (_, to) => {
    const [alice, bob] = await scenario.parties('alice', 'bob')
    const caller = '+33612345678'
    await scenario.service.running.telephony.execute({ type: 'incomingCall', from: caller, to })
    const [callRef] = await bob.callRefs()
    const [ringing] = await bob.expectEvents([
      {
        eventName: 'OnCallCreated',
        callRef: String(callRef),
        callState: 'RINGING_INCOMING',
        legs: ['1002:RINGING_INCOMING'],
        participants: [caller],
      },
    ])
    expect(ringing).toMatchObject({
      callData: { initialCalled: { id: { phoneNumber: to } } },
      participants: [
        {
          participantId: caller,
          identity: { id: { phoneNumber: caller }, type: { main: 'EXTERNAL' } },
        },
      ],
    })

    await bob.answer(String(callRef))
    await bob.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef: String(callRef),
        callState: 'ACTIVE',
        legs: ['1002:ACTIVE'],
      },
      BUSY,
    ])

    await scenario.service.running.telephony.execute({
      type: 'outsidePartyHangsUp',
      number: caller,
    })
    // Wire facts 6, the captured remote hang-up: RELEASING with the party removed, the end, FREE; no cause.
    await bob.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef: String(callRef),
        callState: 'RELEASING',
        legs: ['1002:RELEASING'],
        removedParticipantIds: [caller],
      },
      { eventName: 'OnCallRemoved', callRef: String(callRef) },
      FREE,
    ])

    await expectNoCalls(alice, bob)
    await expectQuiet(alice, bob)
  })
})

describe('consultation, then transfer', () => {
  it('alice transfers bob to karim: she leaves both calls; bob keeps his call, karim gets it in place of his', async () => {
    const [alice, bob, karim] = await scenario.parties('alice', 'bob', 'karim')
    const { first, second } = await consultation(alice, bob, karim)

    await alice.post(`/calls/${second}/transfer`, { heldCallRef: first })
    // Two calls of two parties: the held call survives (call-model.md, "Which call survives").
    await alice.expectEvents([
      { eventName: 'OnCallRemoved', callRef: second, cause: 'TRANSFERRED' },
      { eventName: 'OnCallRemoved', callRef: first, cause: 'TRANSFERRED' },
      FREE,
    ])
    const [bobs] = await bob.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef: first,
        cause: 'TRANSFERRED',
        callState: 'ACTIVE',
        addedParticipants: ['1011'],
        removedParticipantIds: ['1001'],
      },
    ])
    expect(bobs?.['addedParticipants']).toEqual([{ participantId: '1011', identity: KARIM }])
    // Karim's call is replaced: one OnCallModified naming the old call, no OnCallRemoved (wire facts 6).
    const [karims] = await karim.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef: first,
        previousCallRef: second,
        cause: 'TRANSFERRED',
        callState: 'ACTIVE',
        addedParticipants: ['1002'],
        removedParticipantIds: ['1001'],
      },
    ])
    expect(karims?.['addedParticipants']).toEqual([{ participantId: '1002', identity: BOB }])
    expect(await alice.callRefs()).toEqual([])
    expect(await bob.callRefs()).toEqual([first])
    expect(await karim.callRefs()).toEqual([first])

    expect((await bob.request('DELETE', `/calls/${first}`)).status).toBe(204)
    await bob.expectEvents([{ eventName: 'OnCallRemoved', callRef: first }, FREE])
    await karim.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef: first,
        callState: 'RELEASING',
        legs: ['1011:RELEASING'],
        removedParticipantIds: ['1002'],
      },
      { eventName: 'OnCallRemoved', callRef: first },
      FREE,
    ])
    await expectNoCalls(alice, bob, karim)
    await expectQuiet(alice, bob, karim)
  })
})

describe('merge into a conference', () => {
  it('alice merges bob and karim; bob leaves (PARTICIPANT_LEFT); alice releases the rest', async () => {
    const [alice, bob, karim] = await scenario.parties('alice', 'bob', 'karim')
    const { first, second } = await consultation(alice, bob, karim)

    await alice.post(`/calls/${second}/merge`, { heldCallRef: first })
    // The merging user: OnCallRemoved of the absorbed call, then the conference (call-model.md).
    const [, conference] = await alice.expectEvents([
      { eventName: 'OnCallRemoved', callRef: second, cause: 'CONFERENCED' },
      {
        eventName: 'OnCallModified',
        callRef: first,
        cause: 'CONFERENCED',
        callState: 'ACTIVE',
        legs: ['1001:ACTIVE'],
        addedParticipants: ['1011'],
      },
    ])
    expect(conference?.['callData']).toMatchObject({ capabilities: { dropParticipant: true } })
    const [bobs] = await bob.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef: first,
        cause: 'CONFERENCED',
        callState: 'ACTIVE',
        addedParticipants: ['1011'],
      },
    ])
    expect(bobs?.['addedParticipants']).toEqual([{ participantId: '1011', identity: KARIM }])
    await karim.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef: first,
        previousCallRef: second,
        cause: 'CONFERENCED',
        callState: 'ACTIVE',
        addedParticipants: ['1002'],
      },
    ])
    for (const party of [alice, bob, karim])
      expect(await party.callRefs(), party.loginName).toEqual([first])
    const participants = await alice.request('GET', `/calls/${first}/participants`)
    expect(
      (participants.body as { participants: { participantId: string }[] }).participants
        .map((participant) => participant.participantId)
        .sort(),
    ).toEqual(['1002', '1011'])

    await bob.post(`/calls/${first}/dropme`)
    await bob.expectEvents([
      { eventName: 'OnCallRemoved', callRef: first, cause: 'PARTICIPANT_LEFT' },
      FREE,
    ])
    for (const party of [alice, karim])
      await party.expectEvents([
        {
          eventName: 'OnCallModified',
          callRef: first,
          cause: 'PARTICIPANT_LEFT',
          callState: 'ACTIVE',
          removedParticipantIds: ['1002'],
        },
      ])
    await expectNoCalls(bob)

    expect((await alice.request('DELETE', `/calls/${first}`)).status).toBe(204)
    await alice.expectEvents([{ eventName: 'OnCallRemoved', callRef: first }, FREE])
    await karim.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef: first,
        callState: 'RELEASING',
        legs: ['1011:RELEASING'],
        removedParticipantIds: ['1001'],
      },
      { eventName: 'OnCallRemoved', callRef: first },
      FREE,
    ])
    await expectNoCalls(alice, bob, karim)
    await expectQuiet(alice, bob, karim)
  })
})

describe('redirect to voice mail', () => {
  it('bob sends the ringing call to VOICEMAIL: he is out (REDIRECTED), alice talks to the voice mail', async () => {
    const [alice, bob] = await scenario.parties('alice', 'bob')
    const callRef = await alice.makeCall('1002')
    await alice.expectEvents([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_OUTGOING',
        legs: ['1001:RINGING_OUTGOING'],
        participants: ['1002'],
      },
    ])
    await bob.expectEvents([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_INCOMING',
        legs: ['1002:RINGING_INCOMING'],
        participants: ['1001'],
      },
    ])

    await bob.post(`/calls/${callRef}/redirect`, { redirectTo: 'VOICEMAIL' })
    // Bob never answered: no user state event for him.
    await bob.expectEvents([
      { eventName: 'OnCallRemoved', callRef, cause: 'REDIRECTED', newDestination: VOICEMAIL },
    ])
    // The redirect step (REDIRECTED on every event of it), then the voice mail answers in a second commit.
    const [redirected] = await alice.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef,
        cause: 'REDIRECTED',
        callState: 'RINGING_OUTGOING',
        addedParticipants: [VOICEMAIL],
        removedParticipantIds: ['1002'],
      },
      { eventName: 'OnCallModified', callRef, callState: 'ACTIVE', legs: ['1001:ACTIVE'] },
      BUSY,
    ])
    expect(redirected).toMatchObject({
      callData: { lastRedirecting: BOB },
      addedParticipants: [
        {
          participantId: VOICEMAIL,
          identity: { id: { phoneNumber: VOICEMAIL }, type: { main: 'SERVICE' } },
        },
      ],
    })
    await expectNoCalls(bob)
    expect(await alice.callRefs()).toEqual([callRef])

    expect((await alice.request('DELETE', `/calls/${callRef}`)).status).toBe(204)
    await alice.expectEvents([{ eventName: 'OnCallRemoved', callRef }, FREE])
    await expectNoCalls(alice, bob)
    await expectQuiet(alice, bob)
  })
})

describe('pickup', () => {
  it('karim picks up with autoAnswer the call ringing on bob: bob is out, karim and alice talk (PICKED_UP)', async () => {
    const [alice, bob, karim] = await scenario.parties('alice', 'bob', 'karim')
    const callRef = await alice.makeCall('1002')
    await alice.expectEvents([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_OUTGOING',
        legs: ['1001:RINGING_OUTGOING'],
        participants: ['1002'],
      },
    ])
    await bob.expectEvents([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'RINGING_INCOMING',
        legs: ['1002:RINGING_INCOMING'],
        participants: ['1001'],
      },
    ])

    await karim.post('/devices/1011/pickup', {
      otherCallRef: callRef,
      otherPhoneNumber: '1002',
      autoAnswer: true,
    })
    const [picked] = await alice.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef,
        cause: 'PICKED_UP',
        callState: 'ACTIVE',
        legs: ['1001:ACTIVE'],
        addedParticipants: ['1011'],
        removedParticipantIds: ['1002'],
      },
      BUSY,
    ])
    expect(picked?.['addedParticipants']).toEqual([{ participantId: '1011', identity: KARIM }])
    await bob.expectEvents([{ eventName: 'OnCallRemoved', callRef, cause: 'PICKED_UP' }])
    // The picking device joins connected: the call is created ACTIVE for karim.
    const [created] = await karim.expectEvents([
      {
        eventName: 'OnCallCreated',
        callRef,
        cause: 'PICKED_UP',
        callState: 'ACTIVE',
        legs: ['1011:ACTIVE'],
        participants: ['1001'],
      },
      BUSY,
    ])
    expect(created?.['participants']).toEqual([{ participantId: '1001', identity: ALICE }])
    await expectNoCalls(bob)
    expect(await karim.callRefs()).toEqual([callRef])

    expect((await karim.request('DELETE', `/calls/${callRef}`)).status).toBe(204)
    await karim.expectEvents([{ eventName: 'OnCallRemoved', callRef }, FREE])
    await alice.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removedParticipantIds: ['1011'],
      },
      { eventName: 'OnCallRemoved', callRef },
      FREE,
    ])
    await expectNoCalls(alice, bob, karim)
    await expectQuiet(alice, bob, karim)
  })
})

describe('park and unpark', () => {
  it('alice parks the call on her device (PARKED), bob hears the park slot; alice unparks it and talks again', async () => {
    const [alice, bob] = await scenario.parties('alice', 'bob')
    const callRef = await aliceCallsBobWhoAnswers(alice, bob)

    await alice.post(`/calls/${callRef}/park`, {})
    await alice.expectEvents([{ eventName: 'OnCallRemoved', callRef, cause: 'PARKED' }, FREE])
    // Parked on alice's own device, the slot takes her number: a modified participant, now a SERVICE.
    const [parked] = await bob.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef,
        cause: 'PARKED',
        callState: 'ACTIVE',
        modifiedParticipants: ['1001'],
      },
    ])
    expect(parked?.['modifiedParticipants']).toEqual([
      {
        participantId: '1001',
        identity: { id: { phoneNumber: '1001' }, type: { main: 'SERVICE' } },
      },
    ])
    expect(await alice.callRefs()).toEqual([])
    expect(await bob.callRefs()).toEqual([callRef])

    await alice.post('/devices/1001/unpark', { heldCallRef: callRef })
    // The unparking device joins connected, with no cause (call-model.md, unpark).
    const [created] = await alice.expectEvents([
      {
        eventName: 'OnCallCreated',
        callRef,
        callState: 'ACTIVE',
        legs: ['1001:ACTIVE'],
        participants: ['1002'],
      },
      BUSY,
    ])
    expect(created?.['participants']).toEqual([{ participantId: '1002', identity: BOB }])
    const [unparked] = await bob.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'ACTIVE',
        modifiedParticipants: ['1001'],
      },
    ])
    expect(unparked?.['modifiedParticipants']).toEqual([{ participantId: '1001', identity: ALICE }])

    await bob.post(`/calls/${callRef}/dropme`)
    await bob.expectEvents([{ eventName: 'OnCallRemoved', callRef }, FREE])
    await alice.expectEvents([
      {
        eventName: 'OnCallModified',
        callRef,
        callState: 'RELEASING',
        legs: ['1001:RELEASING'],
        removedParticipantIds: ['1002'],
      },
      { eventName: 'OnCallRemoved', callRef },
      FREE,
    ])
    await expectNoCalls(alice, bob)
    await expectQuiet(alice, bob)
  })
})
