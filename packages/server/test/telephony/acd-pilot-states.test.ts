/**
 * A pilot's states through the engine (operations/acd-pilots.ts, acd-distribution.ts `pilotCondition`): opened,
 * closed by acdmanagement, blocked when nobody of its rule's group is logged on, forwarding; its calendar changed
 * (a week day, an exception day) and the calendar timer switching rule and mode at the transitions' instants as the
 * clock goes; and the refusals of those requests. Each state is shown by what acdmanagement reads and by what
 * becomes of a call to the pilot.
 *
 * The clock: the world starts at 1970-01-01 00:00:01Z (a Thursday) and moves 1 s per command.
 */
import { describe, expect, it } from 'vitest'
import type { PilotDefinition, Transition } from '../../src/platform/acd/contact-center.js'
import { pilotCondition } from '../../src/platform/telephony/operations/acd-distribution.js'
import type { EngineCommand } from '../../src/platform/telephony/telephony-state.js'
import { AcdWorld, contactCenter, FRENCH_PILOT, PG, PILOT, QUEUE } from './acd-world.js'
import { connections, namesOf } from './support.js'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
/** Thursday 1970-01-01 at hh:mm UTC, in ms since the epoch. */
const thursdayAt = (hours: number, minutes: number) => (hours * 60 + minutes) * MINUTE
/** Where pilot 3000 forwards and overflows to: dave's set. */
const ELSEWHERE = '1004'

const transition = (
  time: string,
  ruleNumber: number,
  mode: Transition['mode'] = 'normal',
): Transition => ({ time, ruleNumber, mode })

/** The test contact center with pilot 3000 changed. */
function worldWith(change: Partial<PilotDefinition>, timeZone?: string): AcdWorld {
  const definition = contactCenter()
  return new AcdWorld({
    ...(timeZone !== undefined && { timeZone }),
    pilots: definition.pilots.map((pilot) =>
      pilot.number === PILOT ? { ...pilot, ...change } : pilot,
    ),
  })
}

/** The pilot's state as acdmanagement reads it, and its rule and mode of the moment. */
function pilotOf(w: AcdWorld, number = PILOT) {
  const acd = w.state.acd
  const definition = acd?.definition.pilots[number]
  const runtime = acd?.pilots[number]
  if (acd === undefined || definition === undefined || runtime === undefined)
    throw new Error(`no pilot ${number}`)
  const { state, status } = pilotCondition(acd, definition, runtime)
  return { state, status, ruleNumber: runtime.ruleNumber, mode: runtime.mode }
}

/** Moves the world's clock to `at`, firing the timers due meanwhile. */
function advanceTo(w: AcdWorld, at: number): void {
  w.advance(at - w.now)
}

function calendarChange(
  change: Omit<Extract<EngineCommand, { type: 'acdCalendarChange' }>, 'type' | 'pilot'>,
  pilot = PILOT,
): EngineCommand {
  return { type: 'acdCalendarChange', pilot, ...change }
}

/** The instants the calendar timer is armed at. */
function calendarTimers(w: AcdWorld): number[] {
  return w.state.timers
    .filter((timer) => timer.command.type === 'acdCalendar')
    .map((timer) => timer.at)
}

/**
 * What becomes of a call alice makes to the pilot: offered to an agent's set, waiting in the queue, dissuaded with
 * a cause, or sent elsewhere (forwarded, overflowed).
 */
function callToPilot(w: AcdWorld, number = PILOT): string {
  const placed = w.run({
    type: 'makeCall',
    loginName: 'alice',
    deviceId: '1001',
    callee: number,
    autoAnswer: true,
  })
  const callRef = placed.callRef ?? ''
  const parties = connections(w.state, callRef)
  if (parties === undefined) {
    const removed = namesOf(placed.events, 'alice').find((name) => name.startsWith('OnCallRemoved'))
    return `dissuaded ${removed?.split(':')[1]}`
  }
  const ringing = parties.find(
    (party) => party.endsWith(':RINGING_INCOMING') && party !== `${number}:RINGING_INCOMING`,
  )
  if (parties.includes(`${number}:RINGING_INCOMING`))
    return ringing === undefined ? 'waits' : `offered to ${ringing.split(':')[0]}`
  return `sent to ${ringing?.split(':')[0]}`
}

describe('the states of a pilot', () => {
  const ROWS: {
    name: string
    world: () => AcdWorld
    state: string
    status: string
    call: string
  }[] = [
    {
      name: 'open, an agent of its group ready',
      world: () => {
        const w = new AcdWorld()
        w.logOn('bob', '1002')
        return w
      },
      state: 'Opened',
      status: 'OPEN',
      call: 'offered to 1002',
    },
    {
      name: 'open, its agents logged on but in pause',
      world: () => {
        const w = new AcdWorld()
        w.logOn('bob', '1002')
        w.run({ type: 'acdPause', loginName: 'bob' })
        return w
      },
      state: 'Opened',
      status: 'OPEN',
      call: 'waits',
    },
    {
      name: 'open, nobody of its group logged on: blocked',
      world: () => new AcdWorld(),
      state: 'Blocked',
      status: 'BLOCKED_ON_RULE',
      call: 'dissuaded NO_AVAILABLE_AGENT',
    },
    {
      name: 'open, its only agent logged on out of the group: blocked',
      world: () => {
        const w = new AcdWorld()
        w.logOn('bob', '1002')
        w.run({ type: 'acdExit', loginName: 'bob', pg: PG })
        return w
      },
      state: 'Blocked',
      status: 'BLOCKED_ON_RULE',
      call: 'dissuaded NO_AVAILABLE_AGENT',
    },
    {
      name: 'blocked, with an overflow: the call overflows',
      world: () => worldWith({ overflowTo: ELSEWHERE }),
      state: 'Blocked',
      status: 'BLOCKED_ON_RULE',
      call: `sent to ${ELSEWHERE}`,
    },
    {
      name: 'closed by acdmanagement',
      world: () => {
        const w = new AcdWorld()
        w.logOn('bob', '1002')
        w.run({ type: 'acdPilotMode', pilot: PILOT, open: false })
        return w
      },
      state: 'Closed',
      status: 'BLOCKED',
      call: 'dissuaded DESTINATION_NOT_OBTAINABLE',
    },
    {
      name: 'closed, then opened again',
      world: () => {
        const w = new AcdWorld()
        w.logOn('bob', '1002')
        w.run({ type: 'acdPilotMode', pilot: PILOT, open: false })
        w.run({ type: 'acdPilotMode', pilot: PILOT, open: true })
        return w
      },
      state: 'Opened',
      status: 'OPEN',
      call: 'offered to 1002',
    },
    {
      name: 'closed by its definition',
      world: () => {
        const w = worldWith({ open: false })
        w.logOn('bob', '1002')
        return w
      },
      state: 'Closed',
      status: 'BLOCKED',
      call: 'dissuaded DESTINATION_NOT_OBTAINABLE',
    },
    {
      name: 'forwarding (its calendar), with a number to forward to',
      world: () => {
        const w = worldWith({ forwardTo: ELSEWHERE })
        w.logOn('bob', '1002')
        w.run(
          calendarChange({
            day: 'thursday',
            change: 'add',
            transition: transition('00:00', 1, 'forward'),
          }),
        )
        return w
      },
      state: 'Opened',
      status: 'GENERAL_FORWARDING',
      call: `sent to ${ELSEWHERE}`,
    },
    {
      name: 'forwarding (its calendar) with nowhere to forward to: closed',
      world: () => {
        const w = new AcdWorld()
        w.logOn('bob', '1002')
        w.run(
          calendarChange({
            day: 'thursday',
            change: 'add',
            transition: transition('00:00', 1, 'forward'),
          }),
        )
        return w
      },
      state: 'Closed',
      status: 'BLOCKED',
      call: 'dissuaded DESTINATION_NOT_OBTAINABLE',
    },
  ]

  for (const { name, world, state, status, call } of ROWS)
    it(`${name}: ${state} ${status}, a call ${call}`, () => {
      const w = world()
      expect(pilotOf(w)).toMatchObject({ state, status })
      expect(callToPilot(w)).toBe(call)
    })

  it('the tickets of calls that did not wait: dissuaded, and forwarded or overflowed with where to', () => {
    const closed = new AcdWorld()
    closed.run({ type: 'acdPilotMode', pilot: PILOT, open: false })
    callToPilot(closed)
    expect(closed.tickets()).toMatchObject([{ pilot: PILOT, outcome: 'DISSUADED' }])
    const overflowing = worldWith({ overflowTo: ELSEWHERE })
    callToPilot(overflowing)
    expect(overflowing.tickets()).toMatchObject([{ outcome: 'OVERFLOWED', overflowTo: ELSEWHERE }])
  })

  it('blocked, then an agent logs on: open, and a call then waits for it', () => {
    const w = new AcdWorld()
    expect(pilotOf(w).state).toBe('Blocked')
    w.logOn('carol', '1003')
    expect(pilotOf(w)).toMatchObject({ state: 'Opened', status: 'OPEN' })
    w.run({ type: 'acdLogOff', loginName: 'carol' })
    expect(pilotOf(w).state).toBe('Blocked')
  })

  it('closing or opening a pilot changes neither its rule nor the other pilot', () => {
    const w = new AcdWorld()
    w.logOn('carol', '1003')
    w.run(calendarChange({ day: 'thursday', change: 'add', transition: transition('00:00', 2) }))
    w.run({ type: 'acdPilotMode', pilot: PILOT, open: false })
    expect(pilotOf(w)).toMatchObject({ state: 'Closed', ruleNumber: 2, mode: 'closed' })
    expect(pilotOf(w, FRENCH_PILOT)).toMatchObject({ state: 'Opened', mode: 'normal' })
    w.run({ type: 'acdPilotMode', pilot: PILOT, open: true })
    expect(pilotOf(w)).toMatchObject({ state: 'Opened', ruleNumber: 2, mode: 'normal' })
  })

  it('the waiting calls of a pilot are untouched by its closing', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run({ type: 'acdPause', loginName: 'bob' })
    const callRef = w.incoming(PILOT)
    w.run({ type: 'acdPilotMode', pilot: PILOT, open: false })
    expect(w.state.acd?.queues[QUEUE]).toEqual([callRef])
  })
})

describe('calendar transitions on the clock', () => {
  it('a transition added is in force at once when it is the one the week before left: here last Thursday', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run(
      calendarChange({
        day: 'thursday',
        change: 'add',
        transition: transition('00:10', 2, 'closed'),
      }),
    )
    expect(pilotOf(w)).toMatchObject({ state: 'Closed', ruleNumber: 2, mode: 'closed' })
    // And the timer waits for today's 00:10, which changes nothing more.
    expect(calendarTimers(w)).toEqual([thursdayAt(0, 10)])
  })

  it('the timer switches rule and mode at each transition instant, and is armed for the next one', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run(
      calendarChange({
        day: 'thursday',
        change: 'add',
        transition: transition('00:10', 2, 'closed'),
      }),
    )
    w.run(calendarChange({ day: 'thursday', change: 'add', transition: transition('00:20', 1) }))
    // Last Thursday's 00:20 is in force now (00:00:04).
    expect(pilotOf(w)).toMatchObject({ state: 'Opened', ruleNumber: 1, mode: 'normal' })
    expect(calendarTimers(w)).toEqual([thursdayAt(0, 10)])

    advanceTo(w, thursdayAt(0, 10) - 1)
    expect(pilotOf(w)).toMatchObject({ state: 'Opened', ruleNumber: 1 })
    advanceTo(w, thursdayAt(0, 10))
    expect(pilotOf(w)).toMatchObject({ state: 'Closed', ruleNumber: 2, mode: 'closed' })
    expect(calendarTimers(w)).toEqual([thursdayAt(0, 20)])
    expect(callToPilot(w)).toBe('dissuaded DESTINATION_NOT_OBTAINABLE')

    advanceTo(w, thursdayAt(0, 20))
    expect(pilotOf(w)).toMatchObject({ state: 'Opened', ruleNumber: 1, mode: 'normal' })
    // The next one is next Thursday's 00:10.
    expect(calendarTimers(w)).toEqual([7 * DAY + thursdayAt(0, 10)])
    expect(callToPilot(w)).toBe('offered to 1002')
  })

  it('a transition on another week day: Friday 08:00 is the next day', () => {
    const w = new AcdWorld()
    w.run(calendarChange({ day: 'thursday', change: 'add', transition: transition('00:00', 1) }))
    w.run(
      calendarChange({
        day: 'friday',
        change: 'add',
        transition: transition('08:00', 2, 'closed'),
      }),
    )
    expect(pilotOf(w)).toMatchObject({ ruleNumber: 1, mode: 'normal' })
    expect(calendarTimers(w)).toEqual([DAY + 8 * 60 * MINUTE])
    advanceTo(w, DAY + 8 * 60 * MINUTE)
    expect(pilotOf(w)).toMatchObject({ ruleNumber: 2, mode: 'closed' })
    expect(calendarTimers(w)).toEqual([7 * DAY])
  })

  it('set replaces a transition: the timer moves to its new time', () => {
    const w = new AcdWorld()
    w.run(
      calendarChange({
        day: 'thursday',
        change: 'add',
        transition: transition('00:10', 2, 'closed'),
      }),
    )
    w.run(calendarChange({ day: 'thursday', change: 'add', transition: transition('00:20', 1) }))
    w.run(
      calendarChange({
        day: 'thursday',
        change: 'set',
        index: 1,
        transition: transition('00:15', 2, 'closed'),
      }),
    )
    expect(w.state.acd?.pilots[PILOT]?.calendar.normal.thursday).toEqual([
      transition('00:15', 2, 'closed'),
      transition('00:20', 1),
    ])
    expect(calendarTimers(w)).toEqual([thursdayAt(0, 15)])
    advanceTo(w, thursdayAt(0, 10))
    expect(pilotOf(w).mode).toBe('normal')
    advanceTo(w, thursdayAt(0, 15))
    expect(pilotOf(w).mode).toBe('closed')
  })

  it('delete removes a transition: it no longer comes, and what is in force follows at once', () => {
    const w = new AcdWorld()
    w.run(
      calendarChange({
        day: 'thursday',
        change: 'add',
        transition: transition('00:10', 2, 'closed'),
      }),
    )
    expect(pilotOf(w).mode).toBe('closed')
    w.run(calendarChange({ day: 'thursday', change: 'add', transition: transition('00:20', 1) }))
    w.run(calendarChange({ day: 'thursday', change: 'delete', index: 2 }))
    // Only 00:10 closed is left: last Thursday's is in force again.
    expect(pilotOf(w)).toMatchObject({ ruleNumber: 2, mode: 'closed' })
    w.run(calendarChange({ day: 'thursday', change: 'delete', index: 1 }))
    expect(w.state.acd?.pilots[PILOT]?.calendar.normal.thursday).toEqual([])
    // No transition left: the pilot's own rule and mode, and no timer.
    expect(pilotOf(w)).toMatchObject({ ruleNumber: 1, mode: 'normal' })
    expect(calendarTimers(w)).toEqual([])
  })

  it('an exception day replaces its week day: on 1 January the Thursday transitions do not come, its own do', () => {
    const w = worldWith({ forwardTo: ELSEWHERE })
    w.run(
      calendarChange({
        day: 'thursday',
        change: 'add',
        transition: transition('00:10', 2, 'closed'),
      }),
    )
    w.run(calendarChange({ day: 'thursday', change: 'add', transition: transition('00:20', 1) }))
    w.run(
      calendarChange({
        day: '19700101',
        change: 'add',
        transition: transition('00:30', 1, 'forward'),
      }),
    )
    expect(pilotOf(w)).toMatchObject({ ruleNumber: 1, mode: 'normal' })
    expect(calendarTimers(w)).toEqual([thursdayAt(0, 30)])
    advanceTo(w, thursdayAt(0, 20))
    expect(pilotOf(w).mode).toBe('normal')
    advanceTo(w, thursdayAt(0, 30))
    expect(pilotOf(w)).toMatchObject({ state: 'Opened', status: 'GENERAL_FORWARDING' })
    // Next Thursday is a normal one.
    expect(calendarTimers(w)).toEqual([7 * DAY + thursdayAt(0, 10)])
    // The exception day deleted: today is a normal Thursday again, its 00:20 in force.
    w.run(calendarChange({ day: '19700101', change: 'delete', index: 1 }))
    expect(w.state.acd?.pilots[PILOT]?.calendar.exceptions).toEqual({})
    expect(pilotOf(w)).toMatchObject({ ruleNumber: 1, mode: 'normal' })
  })

  it('an exception day weeks ahead comes in its time', () => {
    const w = new AcdWorld()
    w.run(
      calendarChange({
        day: '19700120',
        change: 'add',
        transition: transition('09:00', 2, 'closed'),
      }),
    )
    expect(calendarTimers(w)).toEqual([19 * DAY + 9 * 60 * MINUTE])
    advanceTo(w, 19 * DAY + 9 * 60 * MINUTE)
    expect(pilotOf(w)).toMatchObject({ ruleNumber: 2, mode: 'closed' })
  })

  it("the times are the contact center's time zone's: 01:10 in Paris is 00:10Z in January", () => {
    const w = worldWith({}, 'Europe/Paris')
    w.run(
      calendarChange({
        day: 'thursday',
        change: 'add',
        transition: transition('01:10', 2, 'closed'),
      }),
    )
    w.run(calendarChange({ day: 'thursday', change: 'add', transition: transition('01:20', 1) }))
    expect(calendarTimers(w)).toEqual([thursdayAt(0, 10)])
    advanceTo(w, thursdayAt(0, 10))
    expect(pilotOf(w).mode).toBe('closed')
  })

  it('closed by acdmanagement: it stays closed until its own next transition, not another pilot one', () => {
    const w = new AcdWorld()
    w.logOn('carol', '1003')
    w.run(calendarChange({ day: 'thursday', change: 'add', transition: transition('00:10', 1) }))
    w.run(
      calendarChange(
        { day: 'thursday', change: 'add', transition: transition('00:05', 1) },
        FRENCH_PILOT,
      ),
    )
    w.run({ type: 'acdPilotMode', pilot: PILOT, open: false })
    expect(pilotOf(w).state).toBe('Closed')
    // The French pilot's transition at 00:05 is not pilot 3000's.
    advanceTo(w, thursdayAt(0, 5))
    expect(pilotOf(w).state).toBe('Closed')
    advanceTo(w, thursdayAt(0, 10))
    expect(pilotOf(w)).toMatchObject({ state: 'Opened', mode: 'normal' })
  })

  it('opened by acdmanagement during a closed transition: open until the next transition closes it again', () => {
    const w = new AcdWorld()
    w.logOn('bob', '1002')
    w.run(
      calendarChange({
        day: 'thursday',
        change: 'add',
        transition: transition('00:00', 1, 'closed'),
      }),
    )
    w.run(
      calendarChange({
        day: 'thursday',
        change: 'add',
        transition: transition('00:30', 1, 'closed'),
      }),
    )
    w.run({ type: 'acdPilotMode', pilot: PILOT, open: true })
    expect(pilotOf(w).state).toBe('Opened')
    advanceTo(w, thursdayAt(0, 30))
    expect(pilotOf(w).state).toBe('Closed')
  })
})

describe('refusals', () => {
  it('an unknown pilot: NOT_FOUND', () => {
    const w = new AcdWorld()
    w.refuses({ type: 'acdPilotMode', pilot: '3999', open: false }, 'NOT_FOUND')
    w.refuses(
      calendarChange({ day: 'monday', change: 'add', transition: transition('08:00', 1) }, '3999'),
      'NOT_FOUND',
    )
    w.refuses({ type: 'acdMonitor', pilot: '3999', loginName: 'dave', start: true }, 'NOT_FOUND')
  })

  it('a rule that is not the pilot one: BAD_PARAMETER', () => {
    const w = new AcdWorld()
    w.refuses(
      calendarChange({ day: 'monday', change: 'add', transition: transition('08:00', 7) }),
      'BAD_PARAMETER',
    )
    // Rule 2 is pilot 3000's, not the French pilot's.
    w.refuses(
      calendarChange(
        { day: 'monday', change: 'add', transition: transition('08:00', 2) },
        FRENCH_PILOT,
      ),
      'BAD_PARAMETER',
    )
  })

  it('a day that is neither a week day nor a real date yyyyMMdd: BAD_PARAMETER', () => {
    const w = new AcdWorld()
    for (const day of ['funday', 'Monday', '19700230', '1970-01-01', '7011'])
      w.refuses(
        calendarChange({ day, change: 'add', transition: transition('08:00', 1) }),
        'BAD_PARAMETER',
      )
  })

  it('a time that is not HH:mm: BAD_PARAMETER', () => {
    const w = new AcdWorld()
    for (const time of ['24:00', '8:00', '08:60', 'noon'])
      w.refuses(
        calendarChange({ day: 'monday', change: 'add', transition: transition(time, 1) }),
        'BAD_PARAMETER',
      )
  })

  it('an 11th transition on a day: BAD_PARAMETER (a week day or an exception day)', () => {
    const w = new AcdWorld()
    for (const day of ['monday', '19700105']) {
      for (let n = 0; n < 10; n++)
        w.run(
          calendarChange({
            day,
            change: 'add',
            transition: transition(`0${n}:00`, 1, n % 2 === 0 ? 'normal' : 'closed'),
          }),
        )
      w.refuses(
        calendarChange({ day, change: 'add', transition: transition('12:00', 1) }),
        'BAD_PARAMETER',
      )
    }
  })

  it('an index out of the day transitions: NOT_FOUND', () => {
    const w = new AcdWorld()
    w.refuses(calendarChange({ day: 'monday', change: 'delete', index: 1 }), 'NOT_FOUND')
    w.run(calendarChange({ day: 'monday', change: 'add', transition: transition('08:00', 1) }))
    w.run(calendarChange({ day: 'monday', change: 'add', transition: transition('18:00', 2) }))
    w.refuses(calendarChange({ day: 'monday', change: 'delete', index: 0 }), 'NOT_FOUND')
    w.refuses(calendarChange({ day: 'monday', change: 'delete', index: 3 }), 'NOT_FOUND')
    w.refuses(
      calendarChange({
        day: 'monday',
        change: 'set',
        index: 3,
        transition: transition('09:00', 1),
      }),
      'NOT_FOUND',
    )
    w.refuses(calendarChange({ day: 'monday', change: 'delete' }), 'NOT_FOUND')
    w.refuses(calendarChange({ day: '19700105', change: 'delete', index: 1 }), 'NOT_FOUND')
  })

  it('add or set without a transition: BAD_PARAMETER', () => {
    const w = new AcdWorld()
    w.run(calendarChange({ day: 'monday', change: 'add', transition: transition('08:00', 1) }))
    w.refuses(calendarChange({ day: 'monday', change: 'add' }), 'BAD_PARAMETER')
    w.refuses(calendarChange({ day: 'monday', change: 'set', index: 1 }), 'BAD_PARAMETER')
  })
})
