/**
 * `journal`, `journal follow`, `journal clear` and `journal verify <file|->` of the command line
 * (docs/journal.md, "Command line"): the journal's entries one readable line each, oldest first; followed live;
 * emptied; verified against an ordered list of patterns (exit code 1 when they did not match).
 */
import { parse } from 'yaml'
import type { JournalEntry } from '../platform/journal/journal-entry.js'
import { FILTER_FIELDS } from '../platform/journal/journal-filter.js'

/** The options that are the journal's filters, as the routes name them. */
export const JOURNAL_FILTER_OPTIONS = FILTER_FIELDS

/** What the journal commands need of the command line. */
export interface JournalCommandContext {
  /** The control plane's base URL, ending in /control/v1. */
  base: string
  token: string
  /** The options given (filters, limit, order, count, json). */
  options: Readonly<Record<string, string | boolean | string[] | undefined>>
  json: boolean
  out(text: string): void
  err(text: string): void
  stdin(): Promise<string>
  readFile(file: string): Promise<string>
}

/** Runs `journal [follow|clear|verify]`; answers the exit code. */
export async function runJournalCommand(
  name: string,
  file: string | undefined,
  context: JournalCommandContext,
): Promise<number> {
  try {
    return await journalCommand(name, file, context)
  } catch (error) {
    const cause = (error as Error & { cause?: { message?: string } }).cause?.message
    context.err(
      `openness-control: cannot reach the control plane at ${context.base}: ${cause ?? (error as Error).message}\n`,
    )
    return 1
  }
}

async function journalCommand(
  name: string,
  file: string | undefined,
  context: JournalCommandContext,
): Promise<number> {
  switch (name) {
    case 'journal follow':
      return follow(context)
    case 'journal clear': {
      const response = await request(context, 'DELETE', '/journal')
      if (!response.ok) return failed(response, context)
      context.out('The journal is empty.\n')
      return 0
    }
    case 'journal verify':
      return verifyFile(file ?? '-', context)
    default:
      return list(context)
  }
}

/** The query of the filters given, with `extra` (limit, order). */
function queryOf(context: JournalCommandContext, extra: readonly string[]): string {
  const query = new URLSearchParams()
  for (const name of [...JOURNAL_FILTER_OPTIONS, ...extra]) {
    const value = context.options[name]
    for (const one of Array.isArray(value) ? value : [value])
      if (typeof one === 'string') query.append(name, one)
  }
  const text = query.toString()
  return text === '' ? '' : `?${text}`
}

async function request(
  context: JournalCommandContext,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${context.base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${context.token}`,
      accept: 'application/json',
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
}

async function failed(response: Response, context: JournalCommandContext): Promise<number> {
  const text = await response.text()
  let help: unknown
  try {
    help = (JSON.parse(text) as { helpMessage?: unknown }).helpMessage
  } catch {
    help = undefined
  }
  context.err(`${typeof help === 'string' ? help : `HTTP ${response.status}`}\n`)
  return 1
}

/** `journal`: the newest entries (`--limit`, 100 by default) printed oldest first, one a line. */
async function list(context: JournalCommandContext): Promise<number> {
  const response = await request(context, 'GET', `/journal${queryOf(context, ['limit', 'order'])}`)
  if (!response.ok) return failed(response, context)
  const page = (await response.json()) as { entries: JournalEntry[]; next?: unknown }
  if (context.json) {
    context.out(`${JSON.stringify(page, null, 2)}\n`)
    return 0
  }
  const entries = context.options['order'] === 'oldest' ? page.entries : [...page.entries].reverse()
  for (const entry of entries) context.out(`${entryLine(entry)}\n`)
  if (entries.length === 0) context.out('No entry.\n')
  else if (page.next !== undefined)
    context.out(`(more entries: narrow the filters, or page with --before/--after)\n`)
  return 0
}

/** `journal follow`: each entry as it is recorded, until interrupted or `--count` entries were printed. */
async function follow(context: JournalCommandContext): Promise<number> {
  const countOption = context.options['count']
  const count = typeof countOption === 'string' ? Number(countOption) : Number.POSITIVE_INFINITY
  if (!(count > 0)) {
    context.err(`--count ${String(countOption)}: a whole number above 0\n`)
    return 2
  }
  const controller = new AbortController()
  const response = await fetch(`${context.base}/journal/stream${queryOf(context, [])}`, {
    headers: { authorization: `Bearer ${context.token}` },
    signal: controller.signal,
  })
  if (!response.ok) return failed(response, context)
  let printed = 0
  let buffered = ''
  const decoder = new TextDecoder()
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true })
      let newline = buffered.indexOf('\n')
      while (newline >= 0) {
        const line = JSON.parse(buffered.slice(0, newline)) as JournalEntry | { kind: 'heartbeat' }
        buffered = buffered.slice(newline + 1)
        newline = buffered.indexOf('\n')
        if (line.kind === 'heartbeat') continue
        context.out(context.json ? `${JSON.stringify(line)}\n` : `${entryLine(line)}\n`)
        printed += 1
        if (printed >= count) {
          controller.abort()
          return 0
        }
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error
  }
  return 0
}

/** `journal verify <file|->`: the patterns file (YAML or JSON) checked; exit code 1 when not matched. */
async function verifyFile(file: string, context: JournalCommandContext): Promise<number> {
  const where = file === '-' ? 'standard input' : file
  let body: unknown
  try {
    body = parse(file === '-' ? await context.stdin() : await context.readFile(file))
  } catch (error) {
    context.err(`openness-control: ${where}: ${(error as Error).message}\n`)
    return 1
  }
  // A bare list is the patterns.
  const response = await request(
    context,
    'POST',
    '/journal/verify',
    Array.isArray(body) ? { patterns: body } : body,
  )
  if (!response.ok) return failed(response, context)
  const verdict = (await response.json()) as Verdict
  if (context.json) context.out(`${JSON.stringify(verdict, null, 2)}\n`)
  else context.out(verdictText(verdict))
  return verdict.matched ? 0 : 1
}

interface Verdict {
  matched: boolean
  entries: JournalEntry[]
  failedAt?: number
  pattern?: Record<string, unknown>
  candidates?: { entry: JournalEntry; differences: string[] }[]
}

/** The verdict as lines: the entries matched, and for a failure the pattern and the near candidates. */
export function verdictText(verdict: Verdict): string {
  const lines = verdict.entries.map((entry, index) => `  ${index + 1}. ${entryLine(entry)}`)
  if (verdict.matched)
    return `Matched: every pattern, in order.\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}`
  const failed = [
    `Not matched: pattern ${(verdict.failedAt ?? 0) + 1} ${JSON.stringify(verdict.pattern)} found no entry after the previous one.`,
    ...(lines.length > 0 ? ['Matched before it:', ...lines] : []),
  ]
  const candidates = verdict.candidates ?? []
  failed.push(candidates.length === 0 ? 'No entry comes close.' : 'Closest entries:')
  for (const { entry, differences } of candidates)
    failed.push(`  ${entryLine(entry)}`, ...differences.map((difference) => `      ${difference}`))
  return `${failed.join('\n')}\n`
}

/** One entry as one line: id, time, kind, then what matters for its kind. */
export function entryLine(entry: JournalEntry): string {
  const head = `#${entry.id} ${entry.at} ${entry.kind.padEnd(9)}`
  switch (entry.kind) {
    case 'event':
      return [
        head,
        entry.user,
        entry.event,
        entry.call && `call=${entry.call}`,
        `subscription=${entry.subscription} #${entry.sequence}`,
        entry.about && `about=${entry.about}`,
      ]
        .filter(Boolean)
        .join(' ')
    case 'near-miss':
      return [
        `${head} ${exchange(entry)}`,
        entry.suggestions.length === 0
          ? 'no route close'
          : `did you mean ${entry.suggestions.map((one) => `${one.method} ${one.path}`).join(', ')}?`,
      ].join('; ')
    default:
      return [
        head,
        entry.user,
        exchange(entry),
        entry.operation,
        entry.kind === 'request' && entry.call && `call=${entry.call}`,
        entry.kind === 'request' && entry.subscription && `subscription=${entry.subscription}`,
        entry.error && `${entry.error.type}: ${entry.error.message}`,
      ]
        .filter(Boolean)
        .join(' ')
  }
}

/** `POST /path?query → 204 (3.1 ms)`, or `… (in progress)`. */
function exchange(entry: {
  method: string
  path: string
  query?: string
  status?: number
  durationMs?: number
}): string {
  const target = `${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ''}`
  return entry.status === undefined
    ? `${target} (in progress)`
    : `${target} → ${entry.status} (${entry.durationMs} ms)`
}
