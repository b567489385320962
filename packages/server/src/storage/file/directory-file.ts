/**
 * Reads the YAML directory file (docs/directory-file.md). Any problem, be it reading, YAML syntax or
 * validation, ends in one DirectoryFileError that lists them all with their lines, so that the service
 * refuses to start and says what to fix.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { type Document, isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml'
import { findDirectoryProblems } from '../../platform/directory/directory-document.js'
import type { DirectoryDocument } from '../../platform/directory/directory-file-schema.js'
import {
  type DirectoryProblem,
  describeDirectoryProblem,
} from '../../platform/directory/directory-problem.js'

/** The directory file cannot be used; `problems` has one line per problem. */
export class DirectoryFileError extends Error {
  override readonly name = 'DirectoryFileError'

  constructor(
    readonly path: string,
    readonly problems: string[],
  ) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`
    super(
      `The directory file ${path} cannot be used (${count}):\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
    )
  }
}

/** The validated document of the file at `path`, and the sha256 of its bytes in hexadecimal. */
export async function readDirectoryFile(
  path: string,
): Promise<{ document: DirectoryDocument; sourceDigest: string }> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch (error) {
    throw new DirectoryFileError(path, [`cannot be read: ${(error as Error).message}`])
  }
  const sourceDigest = createHash('sha256').update(bytes).digest('hex')

  const lineCounter = new LineCounter()
  const yaml = parseDocument(bytes.toString('utf8'), { lineCounter, prettyErrors: false })
  if (yaml.errors.length > 0) {
    throw new DirectoryFileError(
      path,
      yaml.errors.map((error) => {
        const position = lineCounter.linePos(error.pos[0])
        return `line ${position.line}, column ${position.col}: YAML syntax: ${error.message}`
      }),
    )
  }
  if (yaml.contents === null) throw new DirectoryFileError(path, ['the file is empty'])

  let value: unknown
  try {
    value = yaml.toJS()
  } catch (error) {
    throw new DirectoryFileError(path, [`YAML: ${(error as Error).message}`])
  }
  const problems = findDirectoryProblems(value)
  if (problems.length > 0) {
    const located = problems.map((problem) => ({
      problem,
      line: lineOf(yaml, lineCounter, problem),
    }))
    located.sort((a, b) => a.line - b.line)
    throw new DirectoryFileError(
      path,
      located.map(({ problem, line }) => `line ${line}: ${describeDirectoryProblem(problem)}`),
    )
  }
  return { document: value as DirectoryDocument, sourceDigest }
}

/**
 * The line of the problem's field (of its key, in a mapping), or of the nearest enclosing field when
 * the field is missing.
 */
export function lineOf(
  yaml: Document,
  lineCounter: LineCounter,
  problem: DirectoryProblem,
): number {
  let line = 1
  let node: unknown = yaml.contents
  const lineAt = (candidate: unknown): number | undefined => {
    const range = (candidate as { range?: [number, number, number] } | null | undefined)?.range
    return range === undefined ? undefined : lineCounter.linePos(range[0]).line
  }
  line = lineAt(node) ?? line
  for (const segment of problem.path) {
    if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment]
      line = lineAt(node) ?? line
    } else if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && item.key.value === segment)
      if (pair === undefined) break
      line = lineAt(pair.key) ?? line
      node = pair.value
    } else break
  }
  return line
}
