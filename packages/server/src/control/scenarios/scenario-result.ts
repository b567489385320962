/**
 * What a scenario run answers (docs/scenarios.md, "The result"): the verdict, the timeline of what happened,
 * each step's outcome and each expectation's, as TypeBox records for the control plane's OpenAPI document.
 * Times are seconds from the start of the script on the service's clock; calls are named, never shown by
 * callRef, so that the same file gives the same timeline at every run (but `events`, which are the payloads
 * as delivered, with their callRefs, ids and dates).
 */
import { type Static, Type } from 'typebox'

const At = Type.Number({ description: 'seconds from the start of the script' })

export const TimelineEntry = Type.Object(
  {
    at: At,
    kind: Type.Enum(['world', 'step', 'behaviour', 'event'], {
      description:
        "world: what was arranged first; step: a step of the script; behaviour: a device or an outside party acting by the world's rules; event: an event a user's application received",
    }),
    user: Type.Optional(Type.String({ description: 'whose event, or whose application acted' })),
    text: Type.String({ description: 'what happened, in one line' }),
  },
  { title: 'ScenarioTimelineEntry' },
)
export type TimelineEntry = Static<typeof TimelineEntry>

export const StepOutcome = Type.Object(
  {
    step: Type.Integer({ description: 'its index in script' }),
    at: At,
    do: Type.String(),
    as: Type.Optional(Type.String()),
    outcome: Type.Enum(['done', 'skipped', 'failed', 'not run'], {
      description:
        'done as expected; skipped by its if or unless; failed: refused, or not answered as its expect says; not run: an earlier step failed',
    }),
    status: Type.Optional(Type.Integer({ description: 'the HTTP status of its request' })),
    detail: Type.Optional(Type.String()),
  },
  { title: 'ScenarioStepOutcome' },
)
export type StepOutcome = Static<typeof StepOutcome>

export const ExpectationOutcome = Type.Object(
  {
    expectation: Type.String({ description: 'what was expected: its path in the file' }),
    passed: Type.Boolean(),
    detail: Type.String({ description: 'what was seen: how it matched, or what came instead' }),
  },
  { title: 'ScenarioExpectationOutcome' },
)
export type ExpectationOutcome = Static<typeof ExpectationOutcome>

export const DeliveredEvent = Type.Object(
  { at: At, event: Type.Unknown({ description: 'the event as delivered' }) },
  { title: 'ScenarioDeliveredEvent' },
)
export type DeliveredEvent = Static<typeof DeliveredEvent>

export const ScenarioResult = Type.Object(
  {
    name: Type.String(),
    description: Type.Optional(Type.String()),
    passed: Type.Boolean({
      description: 'every step as expected, the world arranged, and every expectation met',
    }),
    duration: Type.Number({ description: "seconds of the service's clock the run took" }),
    failures: Type.Array(Type.String(), { description: 'why it did not pass, one line each' }),
    timeline: Type.Array(TimelineEntry),
    steps: Type.Array(StepOutcome),
    expectations: Type.Array(ExpectationOutcome),
    calls: Type.Record(Type.String(), Type.String(), {
      description: 'the callRef of each call in this run, by name',
    }),
    events: Type.Record(Type.String(), Type.Array(DeliveredEvent), {
      description: 'every event each observed user received, in order',
    }),
  },
  { title: 'ScenarioResult' },
)
export type ScenarioResult = Static<typeof ScenarioResult>
