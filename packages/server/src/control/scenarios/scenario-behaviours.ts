/**
 * The world's rules at work during a run (docs/scenarios.md, "The world"): a device that answers after N
 * rings or seconds, an outside number that answers, is busy or rejects when called, and hangs up a while after
 * its call is connected. The run tells it what it sees after each moment of the clock; it
 * schedules each act at its time on the run's own agenda and runs it then, as the engine's command.
 */
import type { EngineCommand } from '../../platform/telephony/telephony-state.js'
import type { CallNames } from './call-names.js'
import type { ScenarioDependencies } from './scenario-dependencies.js'
import type { DeviceBehaviour, OutsideRule, World } from './scenario-document.js'
import { formatTime } from './scenario-time.js'

/** How long a ring lasts: the French cadence (1.5 s on, 3.5 s off), so the 30 s ringing timeout is 6 rings. */
export const RING_MS = 5_000

interface Act {
  at: number
  sequence: number
  run(): Promise<void>
}

/** A party's connection in a call, as the engine lists it. */
interface Seen {
  callRef: string
  number: string
  deviceId?: string
}

export class ScenarioBehaviours {
  readonly #agenda: Act[] = []
  #sequence = 0
  #ringing = new Set<string>()
  #connected = new Set<string>()

  constructor(
    private readonly world: World,
    private readonly telephony: ScenarioDependencies['telephony'],
    private readonly calls: CallNames,
    /** Writes a line of the timeline at the time given (milliseconds of the run), made at the end. */
    private readonly note: (at: number, text: () => string) => void,
  ) {}

  /** Looks at the calls as they are at `now` and schedules what starts then. */
  observe(now: number): void {
    const ringing = new Set<string>()
    const connected = new Set<string>()
    for (const call of this.telephony.queries.liveCalls()) {
      for (const { endpoint, state } of call.connections) {
        if (endpoint.service !== undefined) continue
        const seen: Seen = {
          callRef: call.callRef,
          number: endpoint.number,
          ...(endpoint.deviceId !== undefined && { deviceId: endpoint.deviceId }),
        }
        const key = `${call.callRef} ${endpoint.number}`
        if (state === 'RINGING_INCOMING') {
          ringing.add(key)
          if (!this.#ringing.has(key)) this.#startsRinging(seen, now)
        } else if (state === 'ACTIVE' && endpoint.deviceId === undefined) {
          connected.add(key)
          if (!this.#connected.has(key)) this.#connects(seen, now)
        }
      }
    }
    this.#ringing = ringing
    this.#connected = connected
  }

  /** When the next act is due, if any. */
  nextAt(): number | undefined {
    return this.#agenda[0]?.at
  }

  /** Runs the first act due by `now`; false when none is. */
  async runDue(now: number): Promise<boolean> {
    const act = this.#agenda[0]
    if (act === undefined || act.at > now) return false
    this.#agenda.shift()
    await act.run()
    return true
  }

  #startsRinging(seen: Seen, now: number): void {
    if (seen.deviceId !== undefined) {
      const device = this.world.devices?.[seen.deviceId]
      const delay = device && answerDelay(device)
      if (delay === undefined) return
      this.#schedule(now + delay.ms, `device ${seen.deviceId} answers`, seen, delay.why, {
        type: 'deviceAnswers',
        deviceId: seen.deviceId,
        callRef: seen.callRef,
      })
      return
    }
    const rule = this.#ruleOf(seen.number)
    const after = (rule?.afterSeconds ?? 0) * 1000
    const why = after === 0 ? 'at once' : `after ${formatTime(after)}`
    const { number, callRef } = seen
    if (rule?.behaviour === 'ANSWER')
      this.#schedule(now + after, `outside ${number} answers`, seen, why, {
        type: 'outsidePartyAnswers',
        number,
        callRef,
      })
    else if (rule?.behaviour === 'REJECT')
      this.#schedule(now + after, `outside ${number} rejects`, seen, why, {
        type: 'outsidePartyRejects',
        number,
        callRef,
        cause: 'DESTINATION_NOT_OBTAINABLE',
      })
    else if (rule?.behaviour === 'BUSY')
      this.#schedule(now, `outside ${number} is busy on`, seen, 'at once', {
        type: 'outsidePartyRejects',
        number,
        callRef,
        cause: 'BUSY',
      })
  }

  /** An outside party's call is connected: it hangs up after the rule's time. */
  #connects(seen: Seen, now: number): void {
    const seconds = this.#ruleOf(seen.number)?.hangUpAfterSeconds
    if (seconds === undefined) return
    const { number, callRef } = seen
    const ms = seconds * 1000
    this.#schedule(
      now + ms,
      `outside ${number} hangs up`,
      seen,
      `${formatTime(ms)} after it was connected`,
      {
        type: 'outsidePartyHangsUp',
        number,
        callRef,
      },
    )
  }

  /** The rule of an outside number: the one naming it, else the longest prefix. */
  #ruleOf(number: string): OutsideRule | undefined {
    const rules = this.world.outside ?? []
    return (
      rules.find((rule) => rule.number === number) ??
      rules
        .filter((rule) => rule.prefix !== undefined && number.startsWith(rule.prefix))
        .sort((a, b) => (b.prefix?.length ?? 0) - (a.prefix?.length ?? 0))[0]
    )
  }

  #schedule(at: number, what: string, seen: Seen, why: string, command: EngineCommand): void {
    const act: Act = {
      at,
      sequence: this.#sequence++,
      run: async () => {
        if (!this.#stillThere(seen, command.type === 'outsidePartyHangsUp')) return
        // Noted first, so that the timeline shows the act before the events it causes.
        let refusal: string | undefined
        this.note(at, () => {
          const call = this.calls.nameOf(seen.callRef)
          return refusal === undefined
            ? `${what} ${call} (${why})`
            : `${what} ${call}: refused, ${refusal}`
        })
        await this.telephony.execute(command).catch((error: unknown) => {
          refusal = (error as Error).message
        })
      },
    }
    this.#agenda.push(act)
    this.#agenda.sort((a, b) => a.at - b.at || a.sequence - b.sequence)
  }

  /** Whether the party still rings in the call (or, for a hang-up, is still in it). */
  #stillThere(seen: Seen, anyState: boolean): boolean {
    const call = this.telephony.queries.liveCalls().find((one) => one.callRef === seen.callRef)
    return (
      call?.connections.some(
        ({ endpoint, state }) =>
          endpoint.number === seen.number && (anyState || state === 'RINGING_INCOMING'),
      ) ?? false
    )
  }
}

/** How long a device lets its call ring before it answers, by the world's rule. */
function answerDelay(device: DeviceBehaviour): { ms: number; why: string } | undefined {
  if (device.answerAfterRings !== undefined) {
    const rings = device.answerAfterRings
    return { ms: rings * RING_MS, why: `after ${rings} ring${rings === 1 ? '' : 's'}` }
  }
  if (device.answerAfterSeconds !== undefined) {
    const ms = device.answerAfterSeconds * 1000
    return { ms, why: `after ${formatTime(ms)}` }
  }
  return undefined
}
