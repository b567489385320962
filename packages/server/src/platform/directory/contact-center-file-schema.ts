/**
 * The directory file's `contactCenter` section (docs/directory-file.md, `contactCenter`), as TypeBox records:
 * the pilots with their rules and calendars, the queues, the processing groups, the operators and the skills of
 * the contact center (platform/acd/contact-center.ts). Times are in seconds, as the hunting groups' are; what the
 * file leaves out takes the defaults of contact-center.ts when imported (directory-import.ts). Unknown keys are
 * errors. The checks across entries (numbers, references, calendars) are in contact-center-checks.ts.
 */
import { enumeration } from '@openness/wire'
import { type Static, Type } from 'typebox'
import {
  MAX_OPERATORS,
  MAX_PILOTS,
  MAX_PROCESSING_GROUPS,
  MAX_QUEUES,
  MAX_SKILLS,
  OPERATOR_TYPES,
  TRANSITION_MODES,
  type WeekDay,
} from '../acd/contact-center.js'

const closed = { additionalProperties: false } as const

/** The lowest and highest level of a skill, an agent's and a call's need alike. */
export const MIN_SKILL_LEVEL = 1
export const MAX_SKILL_LEVEL = 10

const NumberText = (description: string) => Type.String({ description })
const WholeNumber = (description: string) => Type.Integer({ minimum: 0, description })
const SkillLevel = Type.Integer({
  minimum: MIN_SKILL_LEVEL,
  maximum: MAX_SKILL_LEVEL,
  description: `${MIN_SKILL_LEVEL} to ${MAX_SKILL_LEVEL}`,
})

/** A skill a rule's calls need, at a level at least. */
const FileSkillNeed = Type.Object(
  { number: WholeNumber('a skill of the section'), level: SkillLevel },
  closed,
)

/** A calendar transition: from `time` the pilot runs `ruleNumber` in `mode`. */
export const FileTransition = Type.Object(
  {
    time: Type.String({ description: "HH:mm, in the contact center's time zone" }),
    ruleNumber: WholeNumber('a rule of the pilot'),
    mode: Type.Optional(enumeration(TRANSITION_MODES, { description: 'normal when omitted' })),
  },
  { ...closed, title: 'DirectoryCalendarTransition' },
)
export type FileTransition = Static<typeof FileTransition>

const TransitionList = Type.Array(FileTransition)

/** A pilot's calendar: transitions for days of the week, and exception days (yyyyMMdd) that replace them. */
const FileCalendar = Type.Object(
  {
    normal: Type.Optional(
      Type.Object(
        {
          monday: Type.Optional(TransitionList),
          tuesday: Type.Optional(TransitionList),
          wednesday: Type.Optional(TransitionList),
          thursday: Type.Optional(TransitionList),
          friday: Type.Optional(TransitionList),
          saturday: Type.Optional(TransitionList),
          sunday: Type.Optional(TransitionList),
        } satisfies Record<WeekDay, unknown>,
        { ...closed, description: 'transitions by day of the week, monday to sunday' },
      ),
    ),
    exceptions: Type.Optional(
      Type.Record(Type.String(), TransitionList, {
        description: 'transitions by date yyyyMMdd, replacing that day of the week',
      }),
    ),
  },
  closed,
)

/** A rule of a pilot: the queue its calls wait in, the skills they need. */
const FilePilotRule = Type.Object(
  {
    ruleNumber: WholeNumber('unique among the rules of the pilot'),
    name: Type.String({ minLength: 1 }),
    queue: Type.String({ description: 'the number of a queue of the section' }),
    skills: Type.Optional(Type.Array(FileSkillNeed)),
  },
  closed,
)

/** A pilot of the directory file. */
export const DirectoryPilot = Type.Object(
  {
    number: NumberText("the pilot's number in the plan: digits"),
    name: Type.String({ minLength: 1 }),
    rules: Type.Array(FilePilotRule, { minItems: 1 }),
    ruleNumber: Type.Optional(WholeNumber('the rule in force without a calendar (the first rule)')),
    open: Type.Optional(Type.Boolean({ description: 'open without a calendar (true)' })),
    forwardTo: Type.Optional(NumberText('where calendar mode forward sends the calls')),
    overflowTo: Type.Optional(
      NumberText('where a call goes when it waited too long, or is blocked'),
    ),
    overflowAfterSeconds: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, description: 'how long a call waits before overflowTo' }),
    ),
    possibleTransfer: Type.Optional(Type.Boolean({ description: 'true when omitted' })),
    supervisedTransfer: Type.Optional(Type.Boolean({ description: 'false when omitted' })),
    calendar: Type.Optional(FileCalendar),
  },
  { ...closed, title: 'DirectoryPilot' },
)
export type DirectoryPilot = Static<typeof DirectoryPilot>

/** A queue of the directory file. */
export const DirectoryQueue = Type.Object(
  {
    number: NumberText('digits, unique among queues'),
    name: Type.String({ minLength: 1 }),
    processingGroup: Type.String({
      description: 'the number of a processing group of the section',
    }),
    size: Type.Optional(Type.Integer({ minimum: 1, description: 'how many calls wait at most' })),
  },
  { ...closed, title: 'DirectoryQueue' },
)
export type DirectoryQueue = Static<typeof DirectoryQueue>

/** A processing group of the directory file. */
export const DirectoryProcessingGroup = Type.Object(
  {
    number: NumberText('digits, unique among processing groups'),
    name: Type.String({ minLength: 1 }),
    noAnswerSeconds: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, description: 'how long an agent rings (15)' }),
    ),
    wrapUpSeconds: Type.Optional(
      Type.Number({ minimum: 0, description: 'the wrap-up after an ACD call (10; 0: none)' }),
    ),
    transactionCode: Type.Optional(
      Type.Boolean({ description: 'an agent enters a code after each call (false)' }),
    ),
    withdrawReasons: Type.Optional(
      Type.Array(
        Type.Object(
          {
            index: WholeNumber('unique in the group'),
            label: Type.String({ minLength: 1 }),
          },
          closed,
        ),
      ),
    ),
  },
  { ...closed, title: 'DirectoryProcessingGroup' },
)
export type DirectoryProcessingGroup = Static<typeof DirectoryProcessingGroup>

/** An operator of the directory file: a user who works in the contact center. */
export const DirectoryOperator = Type.Object(
  {
    loginName: Type.String({ description: 'a user of the file with a device' }),
    type: enumeration(OPERATOR_TYPES),
    processingGroups: Type.Optional(
      Type.Array(Type.String(), {
        uniqueItems: true,
        description: 'numbers of processing groups, the preferred one first (none)',
      }),
    ),
    skills: Type.Optional(
      Type.Array(
        Type.Object(
          {
            number: WholeNumber('a skill of the section'),
            level: SkillLevel,
            active: Type.Optional(Type.Boolean({ description: 'true when omitted' })),
          },
          closed,
        ),
      ),
    ),
    selfAssign: Type.Optional(Type.Boolean({ description: 'false when omitted' })),
    headset: Type.Optional(Type.Boolean({ description: 'false when omitted' })),
    help: Type.Optional(Type.Boolean({ description: 'true when omitted' })),
    multiline: Type.Optional(Type.Boolean({ description: 'false when omitted' })),
  },
  { ...closed, title: 'DirectoryOperator' },
)
export type DirectoryOperator = Static<typeof DirectoryOperator>

/** A skill of the directory file. */
export const DirectorySkill = Type.Object(
  {
    number: WholeNumber('unique among skills'),
    name: Type.String({ minLength: 1 }),
    abvName: Type.Optional(Type.String({ minLength: 1 })),
    domain: Type.Optional(WholeNumber('the domain of the skill, a number as the SDKs read it')),
  },
  { ...closed, title: 'DirectorySkill' },
)
export type DirectorySkill = Static<typeof DirectorySkill>

/** The directory file's contact center. */
export const DirectoryContactCenter = Type.Object(
  {
    timeZone: Type.Optional(
      Type.String({ description: "the IANA time zone of the calendars' times (UTC)" }),
    ),
    pilots: Type.Optional(Type.Array(DirectoryPilot, { maxItems: MAX_PILOTS })),
    queues: Type.Optional(Type.Array(DirectoryQueue, { maxItems: MAX_QUEUES })),
    processingGroups: Type.Optional(
      Type.Array(DirectoryProcessingGroup, { maxItems: MAX_PROCESSING_GROUPS }),
    ),
    operators: Type.Optional(Type.Array(DirectoryOperator, { maxItems: MAX_OPERATORS })),
    skills: Type.Optional(Type.Array(DirectorySkill, { maxItems: MAX_SKILLS })),
  },
  { ...closed, title: 'DirectoryContactCenter' },
)
export type DirectoryContactCenter = Static<typeof DirectoryContactCenter>
