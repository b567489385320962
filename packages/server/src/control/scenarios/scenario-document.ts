/**
 * The scenario file (docs/scenarios.md): a world to arrange, a script of timed steps on the service's clock,
 * and what is expected of it, as TypeBox records. Unknown keys are errors, since the file is written by hand;
 * a step's arguments depend on its action and are checked against the action's own record
 * (scenario-actions.ts), and the checks a schema cannot express in scenario-checks.ts.
 */
import { type Static, Type } from 'typebox'

const closed = { additionalProperties: false } as const

/** How a duration is written: `3s`, `500ms`, `1.5s`, `2m`, or a number of seconds. */
export const DURATION_PATTERN = '^[0-9]+(\\.[0-9]+)?(ms|s|m)$'
/** What a wrong duration is told. */
export const DURATION_MESSAGE =
  'must be a duration such as 3s, 500ms, 1.5s, 2m, or a number of seconds'

/** A duration: `3s`, `500ms`, `2m`, or a number of seconds. */
export const Duration = Type.Unsafe<string | number>({
  type: ['string', 'number'],
  pattern: DURATION_PATTERN,
  minimum: 0,
  description: DURATION_MESSAGE.replace('must be ', ''),
})

/** How calls are named in a scenario: letters, digits, `-` and `_`, a letter first. */
export const CALL_NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_-]{0,63}$'
export const CallName = Type.String({
  pattern: CALL_NAME_PATTERN,
  description: 'the name the scenario gives a call (its callRef differs from run to run)',
})

/** A number or device id, which YAML must read as a string. */
const Text = Type.String({ minLength: 1 })

/** The states a condition may name: of the whole call, or of one party's connection in it. */
export const CALL_CONDITION_STATES = ['RINGING', 'CONNECTED', 'ENDED'] as const
export const PARTY_CONDITION_STATES = [
  'RINGING_INCOMING',
  'RINGING_OUTGOING',
  'ACTIVE',
  'HELD',
  'GONE',
] as const

export const Condition = Type.Object(
  {
    call: CallName,
    party: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'a device id, an outside number, or a login name (any of its devices)',
      }),
    ),
    state: Type.Enum([...CALL_CONDITION_STATES, ...PARTY_CONDITION_STATES], {
      description:
        'the call RINGING (nobody answered yet), CONNECTED (someone talks or holds) or ENDED; with party, ' +
        "that party's state in the call, GONE when it is not in it",
    }),
  },
  { ...closed, title: 'ScenarioCondition' },
)
export type Condition = Static<typeof Condition>

/** What a step's answer must be, when not a success. */
export const StepExpectation = Type.Object(
  {
    status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
    body: Type.Optional(
      Type.Unknown({ description: 'fields the answer must have (partial match)' }),
    ),
  },
  { ...closed, title: 'ScenarioStepExpectation' },
)
export type StepExpectation = Static<typeof StepExpectation>

/** The fields every step may have; the others are the arguments of its action. */
export const STEP_FIELDS = ['at', 'after', 'do', 'as', 'call', 'if', 'unless', 'expect'] as const

export const Step = Type.Object(
  {
    at: Type.Optional(Duration),
    after: Type.Optional(Duration),
    do: Type.String({ minLength: 1, description: 'the action (docs/scenarios.md, "The script")' }),
    as: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'the user whose application acts, through the API',
      }),
    ),
    call: Type.Optional(CallName),
    if: Type.Optional(Condition),
    unless: Type.Optional(Condition),
    expect: Type.Optional(StepExpectation),
  },
  {
    additionalProperties: true,
    title: 'ScenarioStep',
    description: "at or after, the action and its arguments (the action's own fields)",
  },
)
export type Step = Static<typeof Step> & Record<string, unknown>

const OUTSIDE_BEHAVIOURS = ['ANSWER', 'BUSY', 'NO_ANSWER', 'REJECT'] as const
export const OutsideRule = Type.Object(
  {
    number: Type.Optional(Text),
    prefix: Type.Optional(Text),
    behaviour: Type.Optional(Type.Enum([...OUTSIDE_BEHAVIOURS])),
    afterSeconds: Type.Optional(Type.Number({ minimum: 0 })),
    hangUpAfterSeconds: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { ...closed, title: 'ScenarioOutsideRule' },
)
export type OutsideRule = Static<typeof OutsideRule>

export const DeviceBehaviour = Type.Object(
  {
    autoAnswer: Type.Optional(Type.Boolean({ description: "the engine's own auto answer (1 s)" })),
    state: Type.Optional(Type.Enum(['IN_SERVICE', 'OUT_OF_SERVICE'])),
    answerAfterRings: Type.Optional(Type.Integer({ minimum: 1 })),
    answerAfterSeconds: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { ...closed, title: 'ScenarioDevice' },
)
export type DeviceBehaviour = Static<typeof DeviceBehaviour>

const AnyObject = Type.Object({}, { additionalProperties: true })

export const World = Type.Object(
  {
    users: Type.Optional(
      Type.Array(AnyObject, {
        description:
          "users in the directory file's format: a new one is created, an existing one changed by the fields given",
      }),
    ),
    routing: Type.Optional(
      Type.Record(Type.String(), AnyObject, { description: 'a RoutingState per login name' }),
    ),
    pickupGroups: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String()), {
        description: 'the members of each pickup group, by login name',
      }),
    ),
    huntingGroups: Type.Optional(
      Type.Record(Type.String(), AnyObject, {
        description:
          "each hunting group by number, as an entry of the directory file's huntingGroups without its number",
      }),
    ),
    contactCenter: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            "the contact center, as the directory file's contactCenter section: replaces the platform's",
        },
      ),
    ),
    devices: Type.Optional(Type.Record(Type.String(), DeviceBehaviour)),
    outside: Type.Optional(Type.Array(OutsideRule)),
    clear: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: 'users whose communication log and voice messages are deleted first',
      }),
    ),
  },
  { ...closed, title: 'ScenarioWorld' },
)
export type World = Static<typeof World>

/** An expected event: its name, or `{OnName: {fields}, at?: duration}`. */
export const ExpectedEvent = Type.Unsafe<string | Record<string, unknown>>({
  type: ['string', 'object'],
  description: 'an event name, or {OnName: {fields it must have}, at?: duration}',
})

export const Expectations = Type.Object(
  {
    events: Type.Optional(
      Type.Record(Type.String(), Type.Array(ExpectedEvent), {
        description: "each user's events, in this order (others may come between)",
      }),
    ),
    comlog: Type.Optional(
      Type.Record(Type.String(), Type.Array(AnyObject), {
        description: "the records written in each user's log during the run, oldest first, exactly",
      }),
    ),
    eventSummary: Type.Optional(
      Type.Record(Type.String(), AnyObject, {
        description: "each user's event summary counters at the end (partial match)",
      }),
    ),
  },
  { ...closed, title: 'ScenarioExpectations' },
)
export type Expectations = Static<typeof Expectations>

export const ScenarioDocument = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.String()),
    reset: Type.Optional(
      Type.Boolean({ description: "return the service to the directory file's state first" }),
    ),
    observe: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: 'more users whose events the timeline shows',
      }),
    ),
    world: Type.Optional(World),
    script: Type.Array(Step, { minItems: 1 }),
    end: Type.Optional(Duration),
    expect: Type.Optional(Expectations),
  },
  { ...closed, title: 'Scenario' },
)
export type ScenarioDocument = Static<typeof ScenarioDocument>
