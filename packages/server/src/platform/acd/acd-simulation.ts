/**
 * A contact center floor that runs without people (docs/contact-center-control.md, "Traffic and simulated
 * agents"): traffic generators that make outside callers dial a pilot at a rate, and operators marked simulated
 * that answer, talk and wrap up by themselves. Data only, in the engine's state beside the contact center, so that
 * a floor is as durable, deterministic and replayable as the calls: the same seed gives the same arrivals. The
 * operations are in platform/telephony/operations/acd-simulation.ts.
 */

/** The most traffic generators at once (one per pilot). */
export const MAX_TRAFFIC_GENERATORS = 20
/** The highest rate of a generator, calls per minute. */
export const MAX_CALLS_PER_MINUTE = 600
/** The most generated calls in progress at once: an arrival beyond it is skipped (and counted). */
export const MAX_GENERATED_CALLS = 500
/** The longest patience, talk, answer or wrap-up time: a day. */
export const MAX_SIMULATED_MS = 86_400_000
/** The prefix of the generated callers' numbers when the generator names none. */
export const DEFAULT_CALLER_PREFIX = '0590'
/** The digits of the counter after the prefix: a caller is `<prefix><counter>`, e.g. 0590000001. */
export const CALLER_COUNTER_DIGITS = 6
/** What a caller prefix may be: digits, optionally after a `+`, at most 12 digits. */
export const CALLER_PREFIX = /^\+?[0-9]{1,12}$/
/** The transaction code a simulated agent gives when its processing group asks for one. */
export const SIMULATED_TRANSACTION_CODE = '0'

/** What a traffic generator is told: the rate, the callers' patience and talk time, their numbers, the seed. */
export interface TrafficSettings {
  /** The mean rate of arrivals; the times between them are exponential (a Poisson process). */
  callsPerMinute: number
  /** How long a caller waits unanswered before hanging up; absent: it waits until something ends the call. */
  patienceMs?: number
  /** How long after an agent answers the caller hangs up; absent: the agent ends the call. */
  talkMs?: number
  /** The prefix of the callers' numbers. */
  from: string
  /** The seed the arrivals were drawn from since the generator started (or was given one). */
  seed: number
}

/** A traffic generator as it runs: its settings and where its pseudo-random sequence and counters are. */
export interface TrafficGenerator extends TrafficSettings {
  pilot: string
  /** The state of the pseudo-random sequence (mulberry32), after the last draw. */
  random: number
  startedAt: number
  /** When the next caller arrives (its timer). */
  nextArrivalAt: number
  /** The callers placed. */
  calls: number
  /** The arrivals skipped because MAX_GENERATED_CALLS generated calls were in progress. */
  skipped: number
}

/** A generated call in progress: the caller's number and what the caller does. */
export interface GeneratedCall {
  pilot: string
  caller: string
  patienceMs?: number
  talkMs?: number
}

/** How a simulated agent handles an ACD call offered to its set. */
export interface SimulatedAgent {
  /** How long the set rings before the agent answers. */
  answerAfterMs: number
  /** How long after answering the agent hangs up (if the caller has not). */
  talkMs: number
  /**
   * How long the agent wraps up before it is ready again; absent: until its processing group's wrap-up timer ends
   * it. The group's timer ends a longer one first.
   */
  wrapUpMs?: number
}

/** Everything the engine holds of the simulated floor. */
export interface AcdSimulation {
  /** The generators by pilot number. */
  generators: Record<string, TrafficGenerator>
  /** The simulated agents by login name. */
  agents: Record<string, SimulatedAgent>
  /** The generated calls in progress, by callRef. */
  calls: Record<string, GeneratedCall>
  /** How many callers the generators numbered: the counter of the next one. */
  callers: number
}

/** An empty simulation. */
export function emptySimulation(): AcdSimulation {
  return { generators: {}, agents: {}, calls: {}, callers: 0 }
}

/** Whether the simulation holds nothing (the engine then drops it from its state). */
export function isEmptySimulation(simulation: AcdSimulation): boolean {
  return (
    Object.keys(simulation.generators).length === 0 &&
    Object.keys(simulation.agents).length === 0 &&
    Object.keys(simulation.calls).length === 0
  )
}

/**
 * One draw of mulberry32 (a small 32-bit generator, good enough for traffic): the value in [0, 1) and the state
 * after it. The same state gives the same value on every platform.
 */
export function drawRandom(state: number): { value: number; state: number } {
  const next = (state + 0x6d2b79f5) >>> 0
  let t = next
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return { value: ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296, state: next }
}

/** The time to the next arrival for a draw `u` in [0, 1): exponential with the rate's mean, 1 ms at least. */
export function interArrivalMs(callsPerMinute: number, u: number): number {
  const meanMs = 60_000 / callsPerMinute
  return Math.max(1, Math.round(-Math.log(1 - u) * meanMs))
}

/** A seed made of a text (FNV-1a, 32 bits): the default seed of a generator, from its pilot and start time. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash >>> 0
}

/** The number of the `counter`-th generated caller with this prefix. */
export function callerNumber(prefix: string, counter: number): string {
  const modulo = 10 ** CALLER_COUNTER_DIGITS
  return `${prefix}${String(counter % modulo).padStart(CALLER_COUNTER_DIGITS, '0')}`
}
