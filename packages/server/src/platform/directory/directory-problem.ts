/**
 * A problem of a value written by hand in the directory file's format (the file itself, a control plane
 * request): where it is, by the path of the faulty field, and what is wrong.
 */

/** Where a problem is: property names, and indices in lists. The empty path is the whole document. */
export type DirectoryPath = (string | number)[]

/** One problem of a directory document. */
export interface DirectoryProblem {
  path: DirectoryPath
  /** What is wrong, without the path. */
  message: string
  /** Set when the value is valid but already taken by another account or device. */
  conflict?: true
}

/** `users[3].devices[0].type`; `(document)` for the empty path. */
export function formatDirectoryPath(path: DirectoryPath): string {
  let text = ''
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) text += text === '' ? segment : `.${segment}`
    else text += `[${JSON.stringify(segment)}]`
  }
  return text === '' ? '(document)' : text
}

/** `path: message`. */
export function describeDirectoryProblem(problem: DirectoryProblem): string {
  return `${formatDirectoryPath(problem.path)}: ${problem.message}`
}
