/**
 * The checks of the directory file's `contactCenter` section that its schema cannot express (docs/directory-file.md,
 * `contactCenter`): numbers that are digits and unique where they must be, a pilot's number free in the plan,
 * references between pilots, rules, queues, processing groups, operators and skills, the calendars' days, dates,
 * times and rules, the time zone. They run on a document the schema accepted; every problem names its field by
 * its path, as the rest of the document's checks do (directory-document-checks.ts).
 */
import { MAX_DAY_TRANSITIONS, WEEK_DAYS } from '../acd/contact-center.js'
import { isCalendarDate, isKnownTimeZone, isTimeOfDay } from '../acd/pilot-calendar.js'
import type { DirectoryPilot, FileTransition } from './contact-center-file-schema.js'
import type { DirectoryDocument } from './directory-file-schema.js'
import {
  type DirectoryPath,
  type DirectoryProblem,
  formatDirectoryPath,
} from './directory-problem.js'

type Report = (problem: DirectoryProblem) => void

/** Pilot, queue and processing group numbers. */
const DIGITS = /^[0-9]+$/
/** Where a pilot forwards or overflows: a number as dialed, digits, optionally after `+`. */
const DIALED = /^\+?[0-9]+$/

const SECTION = 'contactCenter'

/**
 * Every problem of the document's contact center, when it has one, in the order of the section's fields: the
 * time zone, the pilots, the queues, the processing groups, the operators, the skills.
 */
export function checkContactCenter(document: DirectoryDocument, report: Report): void {
  const section = document.contactCenter
  if (section === undefined) return
  const known: Known = {
    queues: new Set((section.queues ?? []).map((queue) => queue.number)),
    groups: new Set((section.processingGroups ?? []).map((group) => group.number)),
    skills: new Set((section.skills ?? []).map((skill) => skill.number)),
  }
  if (section.timeZone !== undefined && !isKnownTimeZone(section.timeZone))
    report({
      path: [SECTION, 'timeZone'],
      message: `${JSON.stringify(section.timeZone)} is not a time zone this platform knows (an IANA name such as Europe/Paris)`,
    })
  const taken = numbersTaken(document)
  section.pilots?.forEach((pilot, index) => {
    const path: DirectoryPath = [SECTION, 'pilots', index]
    const already = taken.get(pilot.number)
    if (!DIGITS.test(pilot.number))
      report({
        path: [...path, 'number'],
        message: `${JSON.stringify(pilot.number)} must be digits`,
      })
    else if (already !== undefined)
      report({ path: [...path, 'number'], message: `${pilot.number} is already ${already}` })
    else taken.set(pilot.number, `the number of ${formatDirectoryPath(path)}`)
    checkPilot(pilot, path, known, report)
  })
  const queues = new Map<string, string>()
  section.queues?.forEach((queue, index) => {
    const path: DirectoryPath = [SECTION, 'queues', index]
    checkNumber(queue.number, path, queues, report)
    if (!known.groups.has(queue.processingGroup))
      report({
        path: [...path, 'processingGroup'],
        message: `no processing group '${queue.processingGroup}' in contactCenter.processingGroups`,
      })
  })
  const groups = new Map<string, string>()
  section.processingGroups?.forEach((group, index) => {
    const path: DirectoryPath = [SECTION, 'processingGroups', index]
    checkNumber(group.number, path, groups, report)
    const indexes = new Map<number, string>()
    group.withdrawReasons?.forEach((reason, position) => {
      const at: DirectoryPath = [...path, 'withdrawReasons', position]
      const first = indexes.get(reason.index)
      if (first !== undefined)
        report({
          path: [...at, 'index'],
          message: `${reason.index} is already the index of ${first}`,
        })
      else indexes.set(reason.index, formatDirectoryPath(at))
    })
  })
  checkOperators(document, known, report)
  checkSkills(document, report)
}

/** The queues, processing groups and skills of the section, by number: what the other entries may name. */
interface Known {
  queues: Set<string>
  groups: Set<string>
  skills: Set<number>
}

/** The number of a queue or a processing group at `path`: digits, unique among its kind (`seen`). */
function checkNumber(
  number: string,
  path: DirectoryPath,
  seen: Map<string, string>,
  report: Report,
): void {
  const first = seen.get(number)
  if (!DIGITS.test(number))
    report({ path: [...path, 'number'], message: `${JSON.stringify(number)} must be digits` })
  else if (first !== undefined)
    report({ path: [...path, 'number'], message: `${number} is already the number of ${first}` })
  else seen.set(number, formatDirectoryPath(path))
}

/** The skills: numbers unique, and no two of a name in one domain (the SDKs key them by domain and name). */
function checkSkills(document: DirectoryDocument, report: Report): void {
  const numbers = new Map<number, string>()
  const names = new Map<string, string>()
  document.contactCenter?.skills?.forEach((skill, index) => {
    const path: DirectoryPath = [SECTION, 'skills', index]
    const first = numbers.get(skill.number)
    if (first !== undefined)
      report({
        path: [...path, 'number'],
        message: `${skill.number} is already the number of ${first}`,
      })
    else numbers.set(skill.number, formatDirectoryPath(path))
    const key = JSON.stringify([skill.domain ?? null, skill.name])
    const named = names.get(key)
    if (named !== undefined)
      report({
        path: [...path, 'name'],
        message: `${JSON.stringify(skill.name)} is already the name of ${named}${skill.domain === undefined ? '' : ` in domain ${skill.domain}`}`,
      })
    else names.set(key, formatDirectoryPath(path))
  })
}

/** What each number of the plan a pilot could take already is: devices, company phones, voice mail, groups, sets. */
function numbersTaken(document: DirectoryDocument): Map<string, string> {
  const taken = new Map<string, string>()
  const take = (number: string, what: string) => {
    if (!taken.has(number)) taken.set(number, what)
  }
  for (const user of document.users) {
    for (const device of user.devices ?? []) take(device.id, `a device of ${user.loginName}`)
    if (user.companyPhone !== undefined)
      take(user.companyPhone, `the company phone of ${user.loginName}`)
  }
  const voicemailNumber = document.numberingPlan.voicemailNumber
  if (voicemailNumber !== undefined) take(voicemailNumber, 'the voice-mail number')
  for (const group of document.huntingGroups ?? []) take(group.number, 'a hunting group')
  for (const set of document.deskSharingSets ?? []) take(set.number, 'a desk-sharing set')
  return taken
}

/** A pilot's rules, its rule in force, where it forwards and overflows, and its calendar. */
function checkPilot(
  pilot: DirectoryPilot,
  path: DirectoryPath,
  known: Known,
  report: Report,
): void {
  const rules = new Map<number, string>()
  pilot.rules.forEach((rule, index) => {
    const at: DirectoryPath = [...path, 'rules', index]
    const first = rules.get(rule.ruleNumber)
    if (first !== undefined)
      report({
        path: [...at, 'ruleNumber'],
        message: `${rule.ruleNumber} is already the number of ${first}`,
      })
    else rules.set(rule.ruleNumber, formatDirectoryPath(at))
    if (!known.queues.has(rule.queue))
      report({
        path: [...at, 'queue'],
        message: `no queue '${rule.queue}' in contactCenter.queues`,
      })
    checkSkillList(rule.skills ?? [], [...at, 'skills'], known.skills, report)
  })
  const noRule = (ruleNumber: number) => `pilot ${pilot.number} has no rule ${ruleNumber}`
  if (pilot.ruleNumber !== undefined && !rules.has(pilot.ruleNumber))
    report({ path: [...path, 'ruleNumber'], message: noRule(pilot.ruleNumber) })
  for (const field of ['forwardTo', 'overflowTo'] as const) {
    const number = pilot[field]
    if (number === undefined) continue
    if (!DIALED.test(number))
      report({
        path: [...path, field],
        message: `${JSON.stringify(number)} must be digits, optionally after +: a number as dialed`,
      })
    else if (number === pilot.number)
      report({ path: [...path, field], message: 'is the pilot itself' })
  }
  if (pilot.overflowAfterSeconds !== undefined && pilot.overflowTo === undefined)
    report({
      path: [...path, 'overflowAfterSeconds'],
      message: 'needs overflowTo: where the call goes once it waited that long',
    })
  const calendar = pilot.calendar
  if (calendar === undefined) return
  const checkDay = (transitions: readonly FileTransition[], at: DirectoryPath) => {
    if (transitions.length > MAX_DAY_TRANSITIONS)
      report({
        path: at,
        message: `a day holds ${MAX_DAY_TRANSITIONS} transitions at most, and this one has ${transitions.length}`,
      })
    const times = new Map<string, string>()
    transitions.forEach((transition, index) => {
      const where: DirectoryPath = [...at, index]
      if (!isTimeOfDay(transition.time))
        report({
          path: [...where, 'time'],
          message: `${JSON.stringify(transition.time)} must be a time of day HH:mm, from 00:00 to 23:59`,
        })
      else if (times.has(transition.time))
        report({
          path: [...where, 'time'],
          message: `${transition.time} is already the time of ${times.get(transition.time)}`,
        })
      else times.set(transition.time, formatDirectoryPath(where))
      if (!rules.has(transition.ruleNumber))
        report({ path: [...where, 'ruleNumber'], message: noRule(transition.ruleNumber) })
    })
  }
  for (const day of WEEK_DAYS) {
    const transitions = calendar.normal?.[day]
    if (transitions !== undefined) checkDay(transitions, [...path, 'calendar', 'normal', day])
  }
  for (const [date, transitions] of Object.entries(calendar.exceptions ?? {})) {
    const at: DirectoryPath = [...path, 'calendar', 'exceptions', date]
    if (!isCalendarDate(date))
      report({ path: at, message: `${JSON.stringify(date)} is not a date written yyyyMMdd` })
    checkDay(transitions, at)
  }
}

/** Skills of a rule or an operator: each a skill of the section, listed once. */
function checkSkillList(
  list: readonly { number: number }[],
  path: DirectoryPath,
  skills: Set<number>,
  report: Report,
): void {
  const listed = new Set<number>()
  list.forEach((skill, index) => {
    const at: DirectoryPath = [...path, index, 'number']
    if (!skills.has(skill.number))
      report({ path: at, message: `no skill ${skill.number} in contactCenter.skills` })
    else if (listed.has(skill.number))
      report({ path: at, message: `skill ${skill.number} is listed twice` })
    listed.add(skill.number)
  })
}

/**
 * The operators: users of the file with a device to log on at, each listed once, in processing groups of the
 * section, with its skills. An agent in no group is allowed: it logs on out of any group (OUT_OF_PG).
 */
function checkOperators(document: DirectoryDocument, known: Known, report: Report): void {
  const users = new Map(document.users.map((user) => [user.loginName, user]))
  const listed = new Map<string, string>()
  document.contactCenter?.operators?.forEach((operator, index) => {
    const path: DirectoryPath = [SECTION, 'operators', index]
    const user = users.get(operator.loginName)
    const first = listed.get(operator.loginName)
    if (user === undefined)
      report({ path: [...path, 'loginName'], message: `no user '${operator.loginName}'` })
    else if ((user.devices ?? []).length === 0)
      report({
        path: [...path, 'loginName'],
        message: `'${operator.loginName}' has no device to log on at`,
      })
    else if (first !== undefined)
      report({
        path: [...path, 'loginName'],
        message: `'${operator.loginName}' is already ${first}`,
      })
    if (first === undefined) listed.set(operator.loginName, formatDirectoryPath(path))
    operator.processingGroups?.forEach((group, position) => {
      if (!known.groups.has(group))
        report({
          path: [...path, 'processingGroups', position],
          message: `no processing group '${group}' in contactCenter.processingGroups`,
        })
    })
    checkSkillList(operator.skills ?? [], [...path, 'skills'], known.skills, report)
  })
}
