/**
 * Issue 15, fuzzing: hostile requests generated from the OpenAPI document to every one of its operations, with no
 * session and with a session of each kind, asserting that none gets a 5xx the service does not document, that
 * every error is a RestErrorInfo (or the REFUSED Subscription of docs/subscriptions.md), and that a refused
 * request changes nothing. Each operation gets a service of its own, so that its run replays alone:
 * `FUZZ_SEED=<seed> FUZZ_RUNS=<runs> npx vitest run packages/server/test/fuzz -t '<METHOD> <path>$'`.
 * `npm run fuzz -- --runs N` runs it long (docs/security.md, "Fuzzing").
 */
import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { answerProblems } from './answer-checks.js'
import { type FuzzOperation, fuzzOperations } from './fuzz-operations.js'
import { FuzzService, type SentRequest } from './fuzz-service.js'
import { FuzzSummary } from './fuzz-summary.js'
import { type FuzzInput, fuzzInput } from './hostile-inputs.js'
import { stateChanges, stateSnapshot } from './state-snapshot.js'

/** Inputs per operation in `npm test`: the whole file within about two minutes on two cores. */
const CI_RUNS = 25
const RUNS = Number(process.env['FUZZ_RUNS'] ?? CI_RUNS)
const SEED = process.env['FUZZ_SEED'] === undefined ? undefined : Number(process.env['FUZZ_SEED'])

const operations = await fuzzOperations()
const summary = new FuzzSummary(RUNS)

afterAll(() => {
  const file = process.env['FUZZ_SUMMARY']
  if (file !== undefined) summary.write(file)
})

/** What one input did wrong, as a failure's message; undefined when nothing. */
async function exchangeProblems(
  service: FuzzService,
  operation: FuzzOperation,
  input: FuzzInput,
): Promise<string | undefined> {
  await service.settle()
  const before = await stateSnapshot(service.running)
  const { request, response } = await service.exchange(operation, input)
  summary.answered(operation.label, response === 'hung' ? 'hung' : answerKind(response))
  if (response === 'hung') return report(input, request, 'no answer', ['no answer within 10 s'])
  const problems = answerProblems(operation, input, response)
  if (response.statusCode >= 400) {
    await service.idle()
    const changes = stateChanges(before, await stateSnapshot(service.running))
    problems.push(...changes.map((change) => `a refused request changed ${change}`))
  }
  if (problems.length === 0) return undefined
  return report(input, request, `${response.statusCode} ${response.body.slice(0, 500)}`, problems)
}

/** The status, with the error's type when there is one (`403 INVALID_SESSION`), as the summary counts it. */
function answerKind(response: LightMyRequestResponse): string {
  if (response.statusCode < 400) return String(response.statusCode)
  try {
    const body = JSON.parse(response.body) as { type?: unknown; status?: unknown }
    return `${response.statusCode} ${String(body.type ?? body.status)}`
  } catch {
    return String(response.statusCode)
  }
}

function report(
  input: FuzzInput,
  request: SentRequest,
  answer: string,
  problems: string[],
): string {
  const headers = JSON.stringify(request.headers).slice(0, 400)
  return [
    `${request.method} ${request.url.slice(0, 300)}`,
    `session ${input.session}, cookie ${input.cookie}`,
    `headers ${headers}`,
    `body ${JSON.stringify(request.body)}`,
    `answer ${answer}`,
    ...problems.map((problem) => `- ${problem}`),
  ].join('\n')
}

describe('hostile requests to every operation of the OpenAPI document', () => {
  it('finds the operations in the document', () => {
    expect(operations.length).toBeGreaterThan(100)
    expect(operations.map((operation) => operation.label)).toContain('POST /api/rest/1.0/sessions')
  })

  it.each(operations.map((operation) => [operation.label, operation] as const))(
    '%s',
    async (label, operation) => {
      const service = await FuzzService.start()
      try {
        const run = await fc.check(
          fc.asyncProperty(fuzzInput(operation), async (input) => {
            const problems = await exchangeProblems(service, operation, input)
            if (problems !== undefined) throw new Error(problems)
          }),
          // The runs of an operation share its service's state: a shrunk input would meet another state, so the
          // input reported is the one that failed, replayed by its seed.
          { numRuns: RUNS, endOnFailure: true, ...(SEED !== undefined && { seed: SEED }) },
        )
        if (run.failed) {
          const failure = failureReport(label, run)
          summary.failed(label, failure)
          throw new Error(failure)
        }
      } finally {
        await service.close()
      }
    },
    20_000 + RUNS * 200,
  )
})

/**
 * The failure of an operation's run: the request as sent, cut short (fast-check's own report prints each input
 * whole, 70 KB bodies included), and how to replay it.
 */
function failureReport(label: string, run: fc.RunDetails<[FuzzInput]>): string {
  const replay = `FUZZ_SEED=${run.seed} FUZZ_RUNS=${RUNS} npx vitest run packages/server/test/fuzz -t '${label}$'`
  const error = run.errorInstance
  return [
    `after ${run.numRuns} inputs (seed ${run.seed}; replay: ${replay})`,
    error instanceof Error ? error.message : String(error),
  ].join('\n')
}
