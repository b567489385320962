/**
 * The contact center's definition as the control plane reads and writes it (docs/contact-center-control.md,
 * "The definition"): the directory file's `contactCenter` section, checked by the file's own schema and checks
 * (contact-center-file-schema.ts, contact-center-checks.ts) against the directory and the groups as they are now,
 * every problem named by its path in the body; and the engine's definition shown back in that format.
 */
import type { AcdDefinitions } from '../../platform/acd/acd-state.js'
import { checkContactCenter } from '../../platform/directory/contact-center-checks.js'
import { DirectoryContactCenter } from '../../platform/directory/contact-center-file-schema.js'
import type { Directory } from '../../platform/directory/directory.js'
import type { DirectoryDocument } from '../../platform/directory/directory-file-schema.js'
import {
  type DirectoryProblem,
  describeDirectoryProblem,
} from '../../platform/directory/directory-problem.js'
import { findSchemaProblems } from '../../platform/directory/schema-problems.js'

/** The body of PUT /contactCenter/definition and the answer of GET: the directory file's section. */
export const ControlContactCenterDefinition = DirectoryContactCenter

/**
 * Every problem of `value` as the directory file's contactCenter section, each `path: what is wrong` with the
 * path in the body: the schema's, then the file's checks across entries, where a pilot's number must be free among
 * the directory's devices and company phones, the voice-mail number, the hunting groups `groups` (the engine's, which
 * the control plane may have changed) and the desk-sharing sets, and an operator must be a user with a device.
 */
export function findDefinitionProblems(
  value: unknown,
  directory: Directory,
  groups: readonly string[],
): string[] {
  const schemaProblems = findSchemaProblems(DirectoryContactCenter, value)
  if (schemaProblems.length > 0) return schemaProblems.map(describeDirectoryProblem)
  const problems: DirectoryProblem[] = []
  checkContactCenter(documentWith(value as DirectoryContactCenter, directory, groups), (problem) =>
    problems.push({ ...problem, path: problem.path.slice(1) }),
  )
  return problems.map(describeDirectoryProblem)
}

/** What the file's checks read of a document, made of the directory as it is now, with `section` in it. */
function documentWith(
  section: DirectoryContactCenter,
  directory: Directory,
  groups: readonly string[],
): DirectoryDocument {
  const users = directory.listUserLogins().flatMap((loginName) => {
    const record = directory.findUser(loginName)?.record
    if (record === undefined) return []
    return [
      {
        loginName,
        ...(record.companyPhone !== undefined && { companyPhone: record.companyPhone }),
        devices: (record.devices ?? []).flatMap((device) => (device.id ? [{ id: device.id }] : [])),
      },
    ]
  })
  const { numberingPlan, deskSharingSets } = directory.settings
  return {
    users,
    numberingPlan,
    huntingGroups: groups.map((number) => ({ number })),
    ...(deskSharingSets !== undefined && { deskSharingSets }),
    contactCenter: section,
  } as unknown as DirectoryDocument
}

/** The engine's definition as the control plane shows it: the directory file's section, every field given. */
export function shownDefinition(definition: AcdDefinitions): DirectoryContactCenter {
  return {
    ...(definition.timeZone !== undefined && { timeZone: definition.timeZone }),
    pilots: Object.values(definition.pilots).map((pilot) => ({
      number: pilot.number,
      name: pilot.name,
      rules: pilot.rules.map((rule) => structuredClone(rule)),
      ruleNumber: pilot.ruleNumber,
      open: pilot.open,
      ...(pilot.forwardTo !== undefined && { forwardTo: pilot.forwardTo }),
      ...(pilot.overflowTo !== undefined && { overflowTo: pilot.overflowTo }),
      ...(pilot.overflowAfterMs !== undefined && {
        overflowAfterSeconds: pilot.overflowAfterMs / 1000,
      }),
      possibleTransfer: pilot.possibleTransfer,
      supervisedTransfer: pilot.supervisedTransfer,
      calendar: structuredClone(pilot.calendar),
    })),
    queues: Object.values(definition.queues).map((queue) => ({ ...queue })),
    processingGroups: Object.values(definition.processingGroups).map((group) => ({
      number: group.number,
      name: group.name,
      noAnswerSeconds: group.noAnswerMs / 1000,
      wrapUpSeconds: group.wrapUpMs / 1000,
      transactionCode: group.transactionCode,
      withdrawReasons: group.withdrawReasons.map((reason) => ({ ...reason })),
    })),
    operators: Object.values(definition.operators).map((operator) => structuredClone(operator)),
    skills: definition.skills.map((skill) => ({ ...skill })),
  }
}
