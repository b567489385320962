/**
 * Pilot management (`acdmanagement`; client census 2, 5c): the pilots of a node, opened and closed, and their
 * calendars of transitions. Called by the Node and Java SDKs, which read a pilot's rules differently: see
 * PilotRules.
 */
import { type Static, Type } from 'typebox'
import { enumeration } from '../enumeration.js'
import { PILOT_STATUSES } from './call-data.js'

const closed = { additionalProperties: false } as const

/**
 * The state of a pilot. The Node SDK's ServiceState spells the last value `unknown`; the Java SDK's
 * (`@SerializedName`) `Unknown`, and reads `unknown` as null. Both are declared; neither SDK fails on the other.
 */
export const PILOT_STATES = ['Opened', 'Closed', 'Blocked', 'unknown', 'Unknown'] as const
export const PilotState = enumeration(PILOT_STATES, {
  title: 'PilotState',
  description:
    'Opened, Closed or Blocked; unknown (Node SDK) or Unknown (Java SDK) when the state is not known',
})
export type PilotState = (typeof PILOT_STATES)[number]

/** A rule of a pilot (the pilot's behaviour: which queues, forwarding...). */
export const PilotRule = Type.Object(
  {
    ruleNumber: Type.Union([Type.Integer(), Type.String({ pattern: '^[0-9]+$' })], {
      description:
        'an integer: the Node SDK keys its rule set by this value as a number; the Java SDK declares a string and parses it (its fixture sends "11"), and its Gson reads a JSON number as text too',
    }),
    name: Type.Optional(Type.String()),
    active: Type.Boolean({ description: 'whether the rule is the one applied now' }),
  },
  { title: 'PilotRule' },
)
export type PilotRule = Static<typeof PilotRule>

/** The rules of a pilot as the Java SDK reads them: an object around the list. */
export const PilotRuleList = Type.Object(
  { ruleList: Type.Array(PilotRule) },
  { title: 'PilotRuleList' },
)
export type PilotRuleList = Static<typeof PilotRuleList>

/**
 * `rules` of a Pilot. No one shape serves both SDKs: the Node SDK maps `rules` as an array (an object makes
 * its getPilot throw a TypeError), the Java SDK's Gson reads `{ruleList: [..]}` (an array makes getPilot throw
 * JsonSyntaxException). The server sends the array, and the object to Java clients.
 */
export const PilotRules = Type.Union([Type.Array(PilotRule), PilotRuleList], {
  title: 'PilotRules',
  description:
    'Node SDK: an array of rules; Java SDK: {ruleList: [..]}. One or the other, by client',
})
export type PilotRules = Static<typeof PilotRules>

/** GET <acdmanagement>/{nodeId}/pilots/{pilotNumber}; POST of the same path with a PilotTransferQuery (Node). */
export const Pilot = Type.Object(
  {
    number: Type.String({ description: 'the pilot number' }),
    name: Type.Optional(Type.String()),
    state: Type.Optional(PilotState),
    detailedState: Type.Optional(
      enumeration(PILOT_STATUSES, { description: 'a PilotStatus: read by the Node SDK only' }),
    ),
    waitingTime: Type.Optional(
      Type.Integer({ description: 'estimated waiting time in the queue, seconds' }),
    ),
    saturation: Type.Optional(Type.Boolean({ description: 'whether the queue is saturated' })),
    rules: Type.Optional(PilotRules),
    possibleTransfer: Type.Optional(
      Type.Boolean({ description: 'whether a call can be transferred to the pilot' }),
    ),
    supervisedTransfer: Type.Optional(
      Type.Boolean({ description: 'whether such a transfer can be supervised' }),
    ),
  },
  { title: 'Pilot' },
)
export type Pilot = Static<typeof Pilot>

/** GET <acdmanagement>/{nodeId}/pilots. */
export const Pilots = Type.Object(
  {
    pilotList: Type.Array(Pilot, {
      description: 'always present, empty for none: the Java SDK iterates it without a null check',
    }),
  },
  { title: 'Pilots' },
)
export type Pilots = Static<typeof Pilots>

/** The operating mode a transition puts a pilot in (lower case on the wire). */
export const PILOT_OPERATING_MODES = ['normal', 'closed', 'forward'] as const
export const PilotOperatingMode = enumeration(PILOT_OPERATING_MODES, {
  title: 'PilotOperatingMode',
})
export type PilotOperatingMode = (typeof PILOT_OPERATING_MODES)[number]

/** A day of a normal (weekly) calendar: lower case, in paths and in answers. */
export const DAYS_OF_WEEK = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const
export const DayOfWeek = enumeration(DAYS_OF_WEEK, { title: 'DayOfWeek' })
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number]

/** A day of an exception calendar: yyyyMMdd, in paths and in answers (both SDKs format and parse it so). */
const calendarDate = (options: { title?: string; description: string }) =>
  Type.String({ pattern: '^[0-9]{4}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])$', ...options })
export const CalendarDate = calendarDate({
  title: 'CalendarDate',
  description: 'a date as yyyyMMdd',
})
export type CalendarDate = Static<typeof CalendarDate>

/** The 1-based index of a transition in its day, in the paths of PUT and DELETE (both SDKs add 1). */
export const TransitionIndex = Type.Integer({
  title: 'TransitionIndex',
  minimum: 1,
  maximum: 10,
  description: 'the 1-based position of the transition in its day (at most 10 a day)',
})

const transitionFields = {
  time: Type.String({
    pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
    description: 'the time the transition applies, HH:mm (both SDKs send two digits each)',
  }),
  ruleNumber: Type.Integer({ description: 'the pilot rule applied from then on' }),
  mode: PilotOperatingMode,
}

/** A transition of a calendar: from `time` on, the pilot applies `ruleNumber` in `mode`. */
export const PilotTransition = Type.Object(transitionFields, { title: 'PilotTransition' })
export type PilotTransition = Static<typeof PilotTransition>

/**
 * The body of the calendar writes: POST …/calendar/normal/{day} (Node) or …/{day}/transitions (Java), and the
 * same under …/calendar/exception/{yyyyMMdd}; PUT …/{day or date}/transitions/{index}. Both SDKs send all three
 * fields.
 */
export const PilotTransitionRequest = Type.Object(transitionFields, {
  title: 'PilotTransitionRequest',
  ...closed,
})
export type PilotTransitionRequest = Static<typeof PilotTransitionRequest>

/** A transition with its position in the day. */
export const NumberedPilotTransition = Type.Object(
  {
    number: Type.Integer({
      minimum: 1,
      description:
        '1-based position in the day. Send 1..n in order: the Java SDK inserts each at number-1 in a list (out of order or with gaps it throws), the Node SDK places it at number-1',
    }),
    transition: PilotTransition,
  },
  { title: 'NumberedPilotTransition' },
)
export type NumberedPilotTransition = Static<typeof NumberedPilotTransition>

const dayList = () =>
  Type.Optional(
    Type.Array(NumberedPilotTransition, {
      maxItems: 10,
      description: 'the transitions of the day, at most 10',
    }),
  )

/** A day of the normal calendar and its transitions. */
export const NormalDayTransitions = Type.Object(
  {
    day: enumeration(DAYS_OF_WEEK, {
      description: 'a DayOfWeek; required: the Java SDK dereferences it',
    }),
    list: dayList(),
  },
  { title: 'NormalDayTransitions' },
)
export type NormalDayTransitions = Static<typeof NormalDayTransitions>

/** An exceptional day and its transitions. */
export const ExceptionDayTransitions = Type.Object(
  {
    date: calendarDate({ description: 'yyyyMMdd; required: both SDKs parse it' }),
    list: dayList(),
  },
  { title: 'ExceptionDayTransitions' },
)
export type ExceptionDayTransitions = Static<typeof ExceptionDayTransitions>

/** GET …/pilots/{pilotNumber}/calendar/normal: the week. */
export const NormalCalendar = Type.Object(
  { calendar: Type.Optional(Type.Array(NormalDayTransitions)) },
  { title: 'NormalCalendar' },
)
export type NormalCalendar = Static<typeof NormalCalendar>

/** GET …/pilots/{pilotNumber}/calendar/exception: the exceptional days. */
export const ExceptionCalendar = Type.Object(
  { calendar: Type.Optional(Type.Array(ExceptionDayTransitions)) },
  { title: 'ExceptionCalendar' },
)
export type ExceptionCalendar = Static<typeof ExceptionCalendar>

/** GET …/pilots/{pilotNumber}/calendar: both calendars. */
export const PilotCalendar = Type.Object(
  {
    normalDays: Type.Optional(NormalCalendar),
    exceptionDays: Type.Optional(ExceptionCalendar),
  },
  { title: 'PilotCalendar' },
)
export type PilotCalendar = Static<typeof PilotCalendar>
