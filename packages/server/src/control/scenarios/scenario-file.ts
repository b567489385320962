/**
 * Reads a scenario (docs/scenarios.md): YAML text (JSON is YAML too) or a value already parsed, checked
 * against its schema and its rules. Every problem is reported at once, by its path in the file, and by its
 * line when the scenario came as text; the run refuses such a file with 400 BAD_PARAMETER.
 */
import { LineCounter, parseDocument } from 'yaml'
import {
  type DirectoryProblem,
  describeDirectoryProblem,
  formatDirectoryPath,
} from '../../platform/directory/directory-problem.js'
import { findSchemaProblems } from '../../platform/directory/schema-problems.js'
import { PlatformError } from '../../platform/platform-error.js'
import { lineOf } from '../../storage/file/directory-file.js'
import { findScenarioProblems, SCENARIO_PATTERN_MESSAGES } from './scenario-checks.js'
import { DURATION_MESSAGE, ScenarioDocument } from './scenario-document.js'

/** A scenario that cannot be run: every problem, one line each. */
export class ScenarioFileError extends PlatformError {
  constructor(readonly problems: readonly string[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`
    super(
      'BAD_PARAMETER',
      `The scenario has ${count}:\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
    )
  }
}

/** The scenario of a YAML or JSON text; a ScenarioFileError naming every problem, with its line. */
export function readScenarioText(text: string): ScenarioDocument {
  const lineCounter = new LineCounter()
  const yaml = parseDocument(text, { lineCounter, prettyErrors: false })
  if (yaml.errors.length > 0)
    throw new ScenarioFileError(
      yaml.errors.map((error) => {
        const position = lineCounter.linePos(error.pos[0])
        return `line ${position.line}, column ${position.col}: YAML syntax: ${error.message}`
      }),
    )
  if (yaml.contents === null) throw new ScenarioFileError(['the scenario is empty'])
  let value: unknown
  try {
    value = yaml.toJS()
  } catch (error) {
    throw new ScenarioFileError([`YAML: ${(error as Error).message}`])
  }
  const problems = problemsOf(value)
  if (problems.length > 0) {
    const located = problems
      .map((problem) => ({ problem, line: lineOf(yaml, lineCounter, problem) }))
      .sort((a, b) => a.line - b.line)
    throw new ScenarioFileError(
      located.map(({ problem, line }) => `line ${line}: ${describeDirectoryProblem(problem)}`),
    )
  }
  return value as ScenarioDocument
}

/** The scenario of a value already parsed (a JSON body); a ScenarioFileError naming every problem. */
export function readScenarioValue(value: unknown): ScenarioDocument {
  const problems = problemsOf(value)
  if (problems.length > 0) throw new ScenarioFileError(problems.map(describeDirectoryProblem))
  return value as ScenarioDocument
}

function problemsOf(value: unknown): DirectoryProblem[] {
  const shape = findSchemaProblems(ScenarioDocument, value, SCENARIO_PATTERN_MESSAGES).map(
    (problem) =>
      // A duration is a number or a string: the schema's own words for that are no help.
      problem.message === 'must be of type number,string'
        ? { ...problem, message: DURATION_MESSAGE }
        : problem,
  )
  // A field the schema refused is told once, by the schema.
  const told = new Set(shape.map((problem) => formatDirectoryPath(problem.path)))
  const rules = findScenarioProblems(value).filter(
    (problem) => !told.has(formatDirectoryPath(problem.path)),
  )
  return [...shape, ...rules]
}
