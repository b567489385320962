/**
 * Values the fuzzer cannot know when it generates an input: the ids of the calls, subscriptions, sessions,
 * records and messages the service holds when the input is sent. An input names one by kind and index; the
 * fuzz service resolves it against the state of that moment (fuzz-service.ts), so that a fair share of inputs
 * names something that exists, the user's own or another's.
 */
import fc from 'fast-check'

/** The kinds of ids the service makes up as it runs. */
export const LIVE_KINDS = [
  'callRef',
  'subscriptionId',
  'sessionId',
  'recordId',
  'voicemailId',
  'callbackId',
] as const
export type LiveKind = (typeof LIVE_KINDS)[number]

/** One id of `kind` the service holds when the input is sent: the `pick`th, modulo how many there are. */
export class LiveValue {
  constructor(
    readonly kind: LiveKind,
    readonly pick: number,
  ) {}

  /** How fast-check prints it in a counterexample. */
  [fc.toStringMethod](): string {
    return `live(${this.kind}#${this.pick})`
  }
}

/** A live id of `kind`. */
export function liveValue(kind: LiveKind): fc.Arbitrary<LiveValue> {
  return fc.nat({ max: 50 }).map((pick) => new LiveValue(kind, pick))
}
