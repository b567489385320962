/**
 * One step of a script (docs/scenarios.md, "The script"): its condition, its request (to the control plane as
 * the operator, or to the API as a user's application, through a session the run opens for that user), and
 * its answer judged against what the step expects. Call names become callRefs on the way in, and a call the
 * step places gets its name from the answer.
 */
import { formatDirectoryPath } from '../../platform/directory/directory-problem.js'
import { isRecord } from '../../platform/directory/schema-problems.js'
import type { CallNames } from './call-names.js'
import { actionOf } from './scenario-actions.js'
import type { InjectedAnswer, ScenarioDependencies } from './scenario-dependencies.js'
import {
  CALL_CONDITION_STATES,
  type Condition,
  STEP_FIELDS,
  type Step,
} from './scenario-document.js'
import { describeMismatch, isCallRefKey, mismatches } from './scenario-matching.js'
import type { ScenarioSessions } from './scenario-sessions.js'
import { helpOf } from './scenario-world.js'

/** What became of a step. */
export interface StepDone {
  outcome: 'done' | 'skipped' | 'failed'
  /** The line of the timeline. */
  text: string
  status?: number
  /** Why it failed, or was skipped. */
  detail?: string
}

/** A step that cannot be sent: a call not placed, a user not there. */
class StepRefused extends Error {}

export class ScenarioSteps {
  constructor(
    private readonly deps: ScenarioDependencies,
    private readonly calls: CallNames,
    private readonly sessions: ScenarioSessions,
  ) {}

  /** Runs step `index` now. */
  async run(step: Step, index: number): Promise<StepDone> {
    const what = describe(step)
    for (const [key, condition] of [
      ['if', step.if],
      ['unless', step.unless],
    ] as const) {
      if (condition === undefined) continue
      const holds = this.#holds(condition)
      if (holds !== (key === 'if'))
        return {
          outcome: 'skipped',
          text: `${what}: skipped, ${key} ${conditionText(condition)} (${holds ? 'it is' : 'it is not'})`,
          detail: `${key} ${conditionText(condition)}`,
        }
    }
    try {
      const answer = await this.#send(step)
      return this.#judge(step, index, what, answer)
    } catch (error) {
      if (!(error instanceof StepRefused)) throw error
      return { outcome: 'failed', text: `${what}: ${error.message}`, detail: error.message }
    }
  }

  async #send(step: Step): Promise<InjectedAnswer> {
    const action = actionOf(step.do)
    if (action === undefined) throw new StepRefused(`${step.do} is not an action`)
    const callRef =
      step.call === undefined || action.call === 'creates' ? undefined : this.#ref(step.call)
    const args = Object.fromEntries(
      Object.entries(step)
        .filter(([key]) => !(STEP_FIELDS as readonly string[]).includes(key))
        .map(([key, value]) => [key, this.#withRefs(value)]),
    )
    const request = action.request(args, callRef)
    const path = request.path.replace(/\{([^}]*)\}/g, (_, name: string) =>
      encodeURIComponent(this.#ref(name)),
    )
    const body = request.body === undefined ? {} : { body: request.body }
    if (action.kind === 'control')
      return this.deps.control({ method: request.method, url: path, ...body })
    const cookie = await this.sessions.cookieOf(step.as ?? '').catch((error: unknown) => {
      throw new StepRefused((error as Error).message)
    })
    return this.sessions.api(step.as ?? '', {
      method: request.method,
      url: `/api/rest/1.0${path}`,
      headers: { cookie },
      ...body,
    })
  }

  #judge(step: Step, index: number, what: string, answer: InjectedAnswer): StepDone {
    const { status } = answer
    const expected = step.expect
    const problems: string[] = []
    if (expected?.status !== undefined ? status !== expected.status : status >= 300)
      problems.push(
        `answered ${status}${status >= 300 ? ` ${helpOf(answer)}` : ''}${expected?.status === undefined ? '' : `, not ${expected.status}`}`,
      )
    if (expected?.body !== undefined)
      problems.push(
        ...mismatches(expected.body, answer.body, this.calls).map(
          (mismatch) => `body ${describeMismatch(mismatch)}`,
        ),
      )
    const placed = this.#placed(step, answer)
    const shown = `${what} → ${status}${placed ? ` ${placed}` : ''}${status >= 300 ? ` ${helpOf(answer)}` : ''}`
    if (problems.length > 0)
      return {
        outcome: 'failed',
        text: shown,
        status,
        detail: `${formatDirectoryPath(['script', index])} (${step.do}): ${problems.join('; ')}`,
      }
    return { outcome: 'done', text: shown, status }
  }

  /** Names the call a step placed, from the answer: `{callRef}`, or the Location of the API's 201. */
  #placed(step: Step, answer: InjectedAnswer): string | undefined {
    if (actionOf(step.do)?.call !== 'creates' || answer.status !== 201) return undefined
    const location = answer.headers['location']
    const fromBody = isRecord(answer.body) ? answer.body['callRef'] : undefined
    const callRef =
      typeof fromBody === 'string'
        ? fromBody
        : typeof location === 'string'
          ? decodeURIComponent(location.slice(location.lastIndexOf('/') + 1))
          : undefined
    if (callRef === undefined) return undefined
    if (step.call !== undefined) this.calls.name(step.call, callRef)
    return this.calls.nameOf(callRef)
  }

  #ref(name: string): string {
    const callRef = this.calls.refOf(name)
    if (callRef === undefined)
      throw new StepRefused(`call ${name} was not placed (the step that names it did not place it)`)
    return callRef
  }

  /** `value` with the call names of its callRef fields as callRefs. */
  #withRefs(value: unknown, key = ''): unknown {
    if (isCallRefKey(key) && typeof value === 'string') return this.#ref(value)
    if (Array.isArray(value)) return value.map((item) => this.#withRefs(item))
    if (!isRecord(value)) return value
    return Object.fromEntries(
      Object.entries(value).map(([field, item]) => [field, this.#withRefs(item, field)]),
    )
  }

  /** Whether the condition holds now, on the engine's calls. */
  #holds(condition: Condition): boolean {
    const callRef = this.calls.refOf(condition.call)
    const call =
      callRef === undefined
        ? undefined
        : this.deps.telephony.queries.liveCalls().find((one) => one.callRef === callRef)
    if ((CALL_CONDITION_STATES as readonly string[]).includes(condition.state)) {
      const state =
        call === undefined
          ? 'ENDED'
          : call.connections.some(({ state }) => state === 'ACTIVE' || state === 'HELD')
            ? 'CONNECTED'
            : 'RINGING'
      return state === condition.state
    }
    const states = (call?.connections ?? [])
      .filter(
        ({ endpoint }) =>
          endpoint.deviceId === condition.party ||
          endpoint.number === condition.party ||
          endpoint.loginName === condition.party,
      )
      .map(({ state }) => state as string)
    return states.length === 0 ? condition.state === 'GONE' : states.includes(condition.state)
  }
}

function conditionText(condition: Condition): string {
  return condition.party === undefined
    ? `${condition.call} ${condition.state}`
    : `${condition.party} ${condition.state} in ${condition.call}`
}

/** The step in one line: `alice: makeCall callee=1002`, `calls make from=+33612345678 to=1001`. */
function describe(step: Step): string {
  const args = Object.entries(step).filter(
    ([key]) => !(STEP_FIELDS as readonly string[]).includes(key),
  )
  const shown = args.flatMap(([key, value]) =>
    key === 'body' && isRecord(value)
      ? Object.entries(value).map(([field, item]) => text(field, item))
      : [text(key, value)],
  )
  const onCall = step.call === undefined ? [] : [`call=${step.call}`]
  return [step.do, ...shown, ...onCall].join(' ')
}

function text(key: string, value: unknown): string {
  return `${key}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`
}
