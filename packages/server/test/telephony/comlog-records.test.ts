/**
 * The records of the communication log each user gets as a call ends (docs/comlog.md, "Reasons"): one row
 * per way a call can end on this engine, each with the records of every directory user in it.
 */
import { describe, expect, it } from 'vitest'
import { CallLogRecorder } from '../../src/platform/comlog/call-log-recorder.js'
import type { ComRecordDraft } from '../../src/platform/comlog/com-record.js'
import type { RoutingLookup, RoutingProfile } from '../../src/platform/routing/routing-profile.js'
import { allCalls } from '../../src/platform/telephony/call-index.js'
import type { EngineResult } from '../../src/platform/telephony/engine-operation.js'
import type {
  OutsideBehaviour,
  TelephonyDirectory,
} from '../../src/platform/telephony/telephony-directory.js'
import type { EngineCommand } from '../../src/platform/telephony/telephony-state.js'
import { FeatureWorld, featureDirectory, OUTSIDE_PREFIX } from './support.js'

const BUSY = '0155660005'
const REJECTS = '0899123456'
const RULES: Record<string, OutsideBehaviour> = {
  [BUSY]: { kind: 'BUSY' },
  [REJECTS]: { kind: 'REJECT', afterMs: 1_000 },
}
/** The company's public numbers: this prefix and an extension (DirectoryTelephony.resolveIncoming). */
const PUBLIC_PREFIX = '+3315566'
const outsideDirectory: TelephonyDirectory = {
  ...featureDirectory,
  // alice may intrude (operations/intrusion.ts).
  featuresOf: (loginName) => ({
    ...featureDirectory.featuresOf?.(loginName),
    ...(loginName === 'alice' && { intrusion: true }),
  }),
  outsideBehaviour: (number) => RULES[number],
  resolveIncoming: (dialed) => {
    const extension = dialed.startsWith(PUBLIC_PREFIX) ? dialed.slice(PUBLIC_PREFIX.length) : dialed
    const person = featureDirectory.ownerOfDevice(extension)
    return person && { number: extension, deviceId: extension, loginName: person.loginName }
  },
}

/** A world whose every command's events go through a recorder; `records` are the records written so far. */
class LoggedWorld extends FeatureWorld {
  readonly recorder = new CallLogRecorder(outsideDirectory)
  readonly records: ComRecordDraft[] = []

  constructor(settings = {}, routing?: RoutingLookup) {
    super(settings, outsideDirectory, routing)
  }

  override run(command: EngineCommand): EngineResult {
    const result = super.run(command)
    this.log(result.events)
    return result
  }

  override advance(ms: number) {
    const events = super.advance(ms)
    this.log(events)
    return events
  }

  private log(events: EngineResult['events']): void {
    this.records.push(...this.recorder.observe(events, this.now))
  }

  make(from: string, callee: string): string {
    const device = { alice: '1001', bob: '1002', carol: '1003' }[from] ?? ''
    const command = {
      type: 'makeCall',
      loginName: from,
      deviceId: device,
      callee,
      autoAnswer: true,
    }
    const callRef = this.run(command as EngineCommand).callRef
    if (callRef === undefined) throw new Error('no call')
    return callRef
  }
}

/** A record in short: `login role answered reason`. */
function short(draft: ComRecordDraft): string {
  return `${draft.loginName} ${draft.role} ${draft.answered ? 'answered' : 'unanswered'} ${draft.reason}${draft.missed ? ' missed' : ''}`
}

const ENDINGS: [string, (w: LoggedWorld) => void, string[]][] = [
  [
    'answered, then released',
    (w) => {
      const call = w.make('alice', '1002')
      w.run({ type: 'answer', loginName: 'bob', callRef: call })
      w.run({ type: 'release', loginName: 'bob', callRef: call })
    },
    ['bob CALLEE answered NORMAL', 'alice CALLER answered NORMAL'],
  ],
  [
    'released by the caller while ringing',
    (w) => {
      const call = w.make('alice', '1002')
      w.run({ type: 'release', loginName: 'alice', callRef: call })
    },
    ['alice CALLER unanswered ABANDONED', 'bob CALLEE unanswered ABANDONED missed'],
  ],
  [
    'not answered before the ringing timeout',
    (w) => {
      w.make('alice', '1004')
      w.advance(60_000)
    },
    ['dave CALLEE unanswered ABANDONED missed', 'alice CALLER unanswered ABANDONED'],
  ],
  [
    'busy outside number',
    (w) => {
      w.make('alice', `${OUTSIDE_PREFIX}${BUSY}`)
      w.advance(1_000)
    },
    ['alice CALLER unanswered BUSY'],
  ],
  [
    'outside number that cannot be reached',
    (w) => {
      w.make('alice', `${OUTSIDE_PREFIX}${REJECTS}`)
      w.advance(2_000)
    },
    ['alice CALLER unanswered INVALID_NUMBER'],
  ],
  [
    'to a hunting group: the second member answers; the first, who let it ring, gets no record',
    (w) => {
      w.run({
        type: 'setHuntingGroup',
        group: {
          number: '2100',
          name: 'Sales',
          policy: 'SEQUENTIAL',
          members: ['bob', 'carol'],
          noAnswerMs: 10_000,
          whenBusy: 'QUEUE',
          queueSize: 1,
          selfJoin: false,
        },
      })
      const call = w.make('alice', '2100')
      w.advance(10_000)
      w.run({ type: 'answer', loginName: 'carol', callRef: call })
      w.run({ type: 'release', loginName: 'carol', callRef: call })
    },
    ['carol CALLEE answered NORMAL', 'alice CALLER answered NORMAL'],
  ],
  [
    'to a hunting group, abandoned by the caller while its member rings',
    (w) => {
      w.run({
        type: 'setHuntingGroup',
        group: {
          number: '2100',
          name: 'Sales',
          policy: 'PARALLEL',
          members: ['bob', 'carol'],
          noAnswerMs: 10_000,
          whenBusy: 'QUEUE',
          queueSize: 1,
          selfJoin: false,
        },
      })
      const call = w.make('alice', '2100')
      w.run({ type: 'release', loginName: 'alice', callRef: call })
    },
    ['alice CALLER unanswered ABANDONED'],
  ],
  [
    'redirected to another user, who answers',
    (w) => {
      const call = w.make('alice', '1002')
      w.run({ type: 'redirect', loginName: 'bob', callRef: call, redirectTo: '1003' })
      w.run({ type: 'answer', loginName: 'carol', callRef: call })
      w.run({ type: 'release', loginName: 'carol', callRef: call })
    },
    [
      'bob CALLEE unanswered RELEASED_ON_REDIRECT',
      'carol CALLEE answered REDIRECTED',
      'alice CALLER answered REDIRECTED',
    ],
  ],
  [
    'redirected to voice mail by the callee',
    (w) => {
      const call = w.make('alice', '1002')
      w.run({ type: 'redirect', loginName: 'bob', callRef: call, redirectTo: 'VOICEMAIL' })
      w.run({ type: 'release', loginName: 'alice', callRef: call })
    },
    ['bob CALLEE unanswered RELEASED_ON_REDIRECT', 'alice CALLER answered VOICEMAIL'],
  ],
  [
    'overflowed to voice mail by the caller',
    (w) => {
      const call = w.make('alice', '1002')
      w.run({ type: 'overflowToVoiceMail', loginName: 'alice', callRef: call })
      w.run({ type: 'release', loginName: 'alice', callRef: call })
    },
    ['bob CALLEE unanswered VOICEMAIL missed', 'alice CALLER answered VOICEMAIL'],
  ],
  [
    'parked by the callee, then released by the caller',
    (w) => {
      const call = w.make('alice', '1002')
      w.run({ type: 'answer', loginName: 'bob', callRef: call })
      w.run({ type: 'park', loginName: 'bob', callRef: call })
      w.run({ type: 'release', loginName: 'alice', callRef: call })
    },
    ['bob CALLEE answered NORMAL', 'alice CALLER answered NORMAL'],
  ],
  [
    'picked up by a colleague',
    (w) => {
      const call = w.make('alice', '1002')
      w.run({
        type: 'pickup',
        loginName: 'carol',
        deviceId: '1003',
        otherCallRef: call,
        otherPhoneNumber: '1002',
        autoAnswer: true,
      })
      w.run({ type: 'release', loginName: 'carol', callRef: call })
    },
    [
      'bob CALLEE unanswered PICKUP',
      'carol CALLEE answered PICKUP',
      'alice CALLER answered PICKUP',
    ],
  ],
  [
    'transferred by the user who held one call and consulted on the other',
    (w) => {
      const held = w.make('alice', '1002')
      w.run({ type: 'answer', loginName: 'bob', callRef: held })
      const consult = w.make('alice', '1003')
      w.run({ type: 'answer', loginName: 'carol', callRef: consult })
      w.run({ type: 'transfer', loginName: 'alice', callRef: consult, heldCallRef: held })
      w.run({ type: 'release', loginName: 'bob', callRef: held })
    },
    [
      'alice CALLER answered RELEASED_ON_TRANSFER',
      'alice CALLER answered RELEASED_ON_TRANSFER',
      'bob CALLEE answered TRANSFERRED',
      'carol CALLEE answered TRANSFERRED',
    ],
  ],
  [
    'merged into a conference, left one by one',
    (w) => {
      const held = w.make('alice', '1002')
      w.run({ type: 'answer', loginName: 'bob', callRef: held })
      const consult = w.make('alice', '1003')
      w.run({ type: 'answer', loginName: 'carol', callRef: consult })
      w.run({ type: 'merge', loginName: 'alice', callRef: consult, heldCallRef: held })
      w.run({ type: 'dropMe', loginName: 'bob', callRef: held })
      w.run({ type: 'release', loginName: 'alice', callRef: held })
    },
    [
      'alice CALLER answered CONFERENCED',
      'bob CALLEE answered CONFERENCED',
      'alice CALLER answered CONFERENCED',
      'carol CALLEE answered CONFERENCED',
    ],
  ],
  [
    "joined by the caller into the callee's other call (intrusion), then released",
    (w) => {
      const busy = w.make('bob', '1003')
      w.run({ type: 'answer', loginName: 'carol', callRef: busy })
      w.make('alice', '1002')
      w.run({ type: 'intrusion', loginName: 'alice', deviceId: '1001' })
      w.run({ type: 'release', loginName: 'bob', callRef: busy })
    },
    [
      // bob did not answer alice's call, yet she reached him: no missed call.
      'bob CALLEE unanswered CONFERENCED',
      'bob CALLER answered CONFERENCED',
      'carol CALLEE answered CONFERENCED',
      'alice CALLER answered CONFERENCED',
    ],
  ],
]

/** bob's routing in the rows below: calls to him reach his voice mail. */
const BOB_TO_VOICEMAIL: [string, Partial<RoutingProfile>, string[]][] = [
  [
    'forwards on no answer',
    { forward: { condition: 'BUSY_NO_ANSWER', target: { type: 'VOICEMAIL' } } },
    ['bob CALLEE unanswered FORWARDED missed'],
  ],
  [
    'forwards at once',
    // bob never rang: he has no part in the call, hence no record.
    { forward: { condition: 'IMMEDIATE', target: { type: 'VOICEMAIL' } } },
    [],
  ],
  [
    'overflows on no answer',
    { overflow: { condition: 'NO_ANSWER', target: 'VOICEMAIL' } },
    ['bob CALLEE unanswered VOICEMAIL missed'],
  ],
]

describe('CallLogRecorder', () => {
  it.each(BOB_TO_VOICEMAIL)(
    'an outside caller whom bob’s routing (%s) sends to his voice mail leaves bob’s record as an internal caller does',
    (_, profile, expected) => {
      const routing: RoutingLookup = (login) =>
        login === 'bob' ? { dnd: false, remoteExtension: false, ...profile } : undefined
      const world = new LoggedWorld({ ringingTimeoutMs: 30_000 }, routing)
      world.run({ type: 'incomingCall', from: '0698765432', to: '1002' })
      world.advance(30_000)
      // The call stays with the voice mail (no user in it) until the caller hangs up: bob's record is written
      // as he leaves it, the same as for an internal caller, and nothing else after.
      expect(world.records.map(short)).toStrictEqual(expected)
      world.advance(8_000)
      world.run({ type: 'outsidePartyHangsUp', number: '0698765432' })
      expect(world.records.map(short)).toStrictEqual(expected)
      expect(world.recorder.size).toBe(0)
      const internal = new LoggedWorld({ ringingTimeoutMs: 30_000 }, routing)
      internal.make('alice', '1002')
      internal.advance(30_000)
      expect(internal.records.map(short)).toStrictEqual(expected)
    },
  )

  it.each([
    ['its public number', `${PUBLIC_PREFIX}1002`],
    ['its extension', '1002'],
  ])(
    'an outside caller calling bob on %s makes bob the CALLEE, a missed call when unanswered',
    (_, dialed) => {
      const world = new LoggedWorld()
      const callRef = world.run({ type: 'incomingCall', from: '0698765432', to: dialed }).callRef
      world.run({ type: 'outsidePartyHangsUp', number: '0698765432' })
      expect(world.records.map(short)).toStrictEqual(['bob CALLEE unanswered ABANDONED missed'])
      expect(world.records[0]?.record.participants).toMatchObject([
        { role: 'CALLEE', initialCalled: { id: { phoneNumber: dialed } }, leg: '1002' },
        { role: 'CALLER', identity: { id: { phoneNumber: '0698765432' } } },
      ])
      expect(world.records[0]?.record.comRef).toBe(callRef)

      const answered = new LoggedWorld()
      const call = answered.run({ type: 'incomingCall', from: '0698765432', to: dialed }).callRef
      answered.run({ type: 'answer', loginName: 'bob', callRef: call ?? '' })
      answered.run({ type: 'release', loginName: 'bob', callRef: call ?? '' })
      expect(answered.records.map(short)).toStrictEqual(['bob CALLEE answered NORMAL'])
    },
  )

  it('takes the user an incoming call to a public number rings as its CALLEE after a restart too', () => {
    const world = new FeatureWorld({}, outsideDirectory)
    world.run({ type: 'incomingCall', from: '0698765432', to: `${PUBLIC_PREFIX}1002` })
    const recorder = new CallLogRecorder(outsideDirectory)
    recorder.seed(allCalls(world.state))
    const hungUp = world.run({ type: 'outsidePartyHangsUp', number: '0698765432' })
    expect(recorder.observe(hungUp.events, world.now).map(short)).toStrictEqual([
      'bob CALLEE unanswered ABANDONED missed',
    ])
  })

  it.each(ENDINGS)('a call %s leaves these records', (_, play, expected) => {
    const world = new LoggedWorld()
    play(world)
    expect(world.records.map(short)).toStrictEqual(expected)
    expect(world.recorder.size).toBe(0)
  })

  it('writes the dates, the parties and who transferred', () => {
    const world = new LoggedWorld()
    const held = world.make('alice', '1002')
    world.run({ type: 'answer', loginName: 'bob', callRef: held })
    const consult = world.make('alice', '1003')
    world.run({ type: 'answer', loginName: 'carol', callRef: consult })
    world.run({ type: 'transfer', loginName: 'alice', callRef: consult, heldCallRef: held })
    world.run({ type: 'release', loginName: 'bob', callRef: held })
    const bob = world.records.find((record) => record.loginName === 'bob')
    expect(bob?.record).toMatchObject({
      comRef: held,
      beginDate: new Date(2_000).toISOString(),
      convDate: new Date(3_000).toISOString(),
      endDate: new Date(7_000).toISOString(),
      transferredBy: 'alice',
      participants: [
        {
          role: 'CALLEE',
          answered: true,
          identity: { id: { loginName: 'bob', phoneNumber: '1002' }, firstName: 'Bob' },
          leg: '1002',
          reason: 'TRANSFERRED',
        },
        { role: 'CALLER', identity: { id: { loginName: 'alice' } } },
        { role: 'CALLER', identity: { id: { loginName: 'carol' } } },
      ],
    })
    expect(bob?.remotePartyIds).toEqual(expect.arrayContaining(['alice', '1001', 'carol']))
  })

  it('forgets what it followed when restarted, and follows the calls it is given from then on', () => {
    const world = new FeatureWorld({}, outsideDirectory)
    const recorder = new CallLogRecorder(outsideDirectory)
    const made = world.run({
      type: 'makeCall',
      loginName: 'alice',
      deviceId: '1001',
      callee: '1002',
      autoAnswer: true,
    })
    recorder.observe(made.events, world.now)
    expect(recorder.size).toBe(2)

    // A batch not stored: the service restarts the recorder on the calls as last stored (none here).
    recorder.restart([])
    expect(recorder.size).toBe(0)
    recorder.restart(allCalls(world.state))
    expect(recorder.size).toBe(2)
  })
})
