/**
 * The directory file (docs/directory-file.md) validated, with no I/O: first against its schema
 * (directory-file-schema.ts), then by the checks the schema cannot express
 * (directory-document-checks.ts). The file is written by hand, so every problem is reported with the
 * path of the faulty field.
 */
import type { Static, TSchema } from 'typebox'
import {
  checkDirectoryDocument,
  checkDirectoryUser,
  type UserContext,
} from './directory-document-checks.js'
import {
  DirectoryDocument,
  DirectoryHuntingGroup,
  DirectoryUser,
  PATTERN_MESSAGES,
} from './directory-file-schema.js'
import { type DirectoryProblem, describeDirectoryProblem } from './directory-problem.js'
import { findSchemaProblems } from './schema-problems.js'

/** Every problem of `value` as a directory document: the schema's first, then the semantic ones. */
export function findDirectoryProblems(value: unknown): DirectoryProblem[] {
  return findProblems(DirectoryDocument, value, checkDirectoryDocument)
}

/** Checks a parsed directory file; the messages name the faulty field by its path. */
export function validateDirectoryDocument(
  value: unknown,
): { document: DirectoryDocument } | { errors: string[] } {
  const problems = findDirectoryProblems(value)
  if (problems.length > 0) return { errors: problems.map(describeDirectoryProblem) }
  return { document: value as DirectoryDocument }
}

/**
 * Every problem of `value` as one user of the directory, checked against the rest of it: the schema's
 * first, then the rules of a user (docs/directory-file.md, "Validation"). Paths start at the user.
 * `context.claims` holds the values of the other accounts and receives this user's.
 */
export function findUserProblems(value: unknown, context: UserContext): DirectoryProblem[] {
  return findProblems(DirectoryUser, value, (user) => checkDirectoryUser(user, context))
}

/**
 * The schema's problems of `value` as one hunting group of the file (the control plane's PUT): the rules
 * between groups and users are the call engine's to check, against the groups it has now.
 */
export function findHuntingGroupProblems(value: unknown): DirectoryProblem[] {
  return findProblems(DirectoryHuntingGroup, value, () => [])
}

/** The schema's problems of `value`, or when it has none the problems `check` finds. */
function findProblems<T extends TSchema>(
  schema: T,
  value: unknown,
  check: (checked: Static<T>) => DirectoryProblem[],
): DirectoryProblem[] {
  const schemaProblems = findSchemaProblems(schema, value, PATTERN_MESSAGES)
  return schemaProblems.length > 0 ? schemaProblems : check(value as Static<T>)
}
