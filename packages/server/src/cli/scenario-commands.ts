/**
 * `scenarios run <file|-|name>` of the command line (docs/scenarios.md, "Running a scenario"): sends a scenario
 * file as YAML, so that the control plane names each problem by its line, or runs one of the library by name;
 * prints the timeline and the verdict, and answers exit code 1 when the scenario did not pass.
 */
import { readFile, stat } from 'node:fs/promises'
import { formatScenarioResult } from '../control/scenarios/scenario-report.js'
import type { ScenarioResult } from '../control/scenarios/scenario-result.js'

/** What the command needs of the command line. */
export interface ScenarioCommandContext {
  /** The control plane's base URL, ending in /control/v1. */
  base: string
  token: string
  reset: boolean
  json: boolean
  out(text: string): void
  err(text: string): void
  stdin(): Promise<string>
}

/** A library scenario's name (a file name would have a `/` or an extension). */
const LIBRARY_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/

/** Runs the scenario `target` and answers the exit code: 0 passed, 1 failed or refused. */
export async function runScenarioCommand(
  target: string,
  context: ScenarioCommandContext,
): Promise<number> {
  const query = context.reset ? '?reset=true' : ''
  const source = await sourceOf(target, context)
  if (source === undefined) return 1
  let response: Response
  try {
    response = await fetch(
      source.name === undefined
        ? `${context.base}/scenarios/run${query}`
        : `${context.base}/scenarios/${encodeURIComponent(source.name)}/run${query}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${context.token}`,
          accept: 'application/json',
          ...(source.text !== undefined && { 'content-type': 'application/yaml' }),
        },
        ...(source.text !== undefined && { body: source.text }),
      },
    )
  } catch (error) {
    const cause = (error as Error & { cause?: { message?: string } }).cause?.message
    context.err(
      `openness-control: cannot reach the control plane at ${context.base}: ${cause ?? (error as Error).message}\n`,
    )
    return 1
  }
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  if (!response.ok) {
    const help = (body as { helpMessage?: unknown } | undefined)?.helpMessage
    context.err(`${typeof help === 'string' ? help : `HTTP ${response.status}`}\n`)
    return 1
  }
  const result = body as ScenarioResult
  context.out(context.json ? `${JSON.stringify(result, null, 2)}\n` : formatScenarioResult(result))
  return result.passed ? 0 : 1
}

/** The file's text, standard input's, or the library's name; undefined (told) when it cannot be read. */
async function sourceOf(
  target: string,
  context: ScenarioCommandContext,
): Promise<{ text?: string; name?: string } | undefined> {
  if (target === '-') return { text: await context.stdin() }
  const isFile = await stat(target).then(
    (found) => found.isFile(),
    () => false,
  )
  if (!isFile && LIBRARY_NAME.test(target)) return { name: target }
  try {
    return { text: await readFile(target, 'utf8') }
  } catch (error) {
    context.err(`openness-control: cannot read ${target}: ${(error as Error).message}\n`)
    return undefined
  }
}
