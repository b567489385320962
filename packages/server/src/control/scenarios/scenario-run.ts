/**
 * One run of a scenario (docs/scenarios.md, "The runner"): the world arranged, then the script played on the
 * service's clock, which the run holds still and moves itself from one moment to the next (a step, an act of
 * the world's rules, a timer of the platform), never waiting on real time; what each observed user receives is
 * written in the timeline as it comes; at the end the expectations are judged.
 */
import { formatDirectoryPath } from '../../platform/directory/directory-problem.js'
import { CallNames } from './call-names.js'
import { eventLine } from './event-lines.js'
import { ScenarioBehaviours } from './scenario-behaviours.js'
import type { ScenarioDependencies } from './scenario-dependencies.js'
import type { ScenarioDocument } from './scenario-document.js'
import { judgeEvents, judgeRecords, judgeSummary } from './scenario-expectations.js'
import { ScenarioObservers } from './scenario-observers.js'
import type {
  ExpectationOutcome,
  ScenarioResult,
  StepOutcome,
  TimelineEntry,
} from './scenario-result.js'
import { ScenarioSessions } from './scenario-sessions.js'
import { ScenarioSteps } from './scenario-steps.js'
import { durationMs, seconds } from './scenario-time.js'
import { arrangeWorld, helpOf } from './scenario-world.js'

/** The most moments a run goes through: far more than an hour of a busy scenario needs. */
const MAX_MOMENTS = 100_000

export class ScenarioRun {
  readonly #calls = new CallNames()
  /** The timeline, its lines written at the end: a call is named by its step once the step's answer came, after its first events. */
  readonly #timeline: { entry: Omit<TimelineEntry, 'text'>; text: () => string }[] = []
  readonly #steps: StepOutcome[] = []
  readonly #expectations: ExpectationOutcome[] = []
  readonly #failures: string[] = []
  readonly #sessions: ScenarioSessions
  #start = 0
  #observers: ScenarioObservers | undefined

  constructor(
    private readonly deps: ScenarioDependencies,
    private readonly document: ScenarioDocument,
  ) {
    this.#sessions = new ScenarioSessions(deps, `scenario ${document.name}`)
  }

  /** Runs the scenario; the clock stays held meanwhile when it can be. */
  async execute(): Promise<ScenarioResult> {
    const release = this.deps.clock.hold?.()
    try {
      this.#start = this.deps.clock.now()
      await this.#checkUsers()
      if (this.document.world && this.#failures.length === 0)
        await arrangeWorld(this.document.world, this.deps, {
          note: (text) => this.#note(0, 'world', text),
          fail: (problem) => this.#failures.push(problem),
        })
      if (this.#failures.length === 0) await this.#play()
      else this.#notRun(0)
      return this.#result()
    } finally {
      this.#observers?.close()
      await this.#sessions.close()
      release?.()
    }
  }

  #elapsed(): number {
    return this.deps.clock.now() - this.#start
  }

  #note(
    at: number,
    kind: TimelineEntry['kind'],
    text: string | (() => string),
    user?: string,
  ): void {
    this.#timeline.push({
      entry: { at: seconds(at), kind, ...(user !== undefined && { user }) },
      text: typeof text === 'string' ? () => text : text,
    })
  }

  /** Every user the file names must be there: a typo is told before anything runs. */
  async #checkUsers(): Promise<void> {
    const { observe = [], script, expect = {} } = this.document
    const named: [string, (string | number)[]][] = [
      ...observe.map((user, index): [string, (string | number)[]] => [user, ['observe', index]]),
      ...script.flatMap((step, index): [string, (string | number)[]][] =>
        step.as === undefined ? [] : [[step.as, ['script', index, 'as']]],
      ),
      ...(['events', 'comlog', 'eventSummary'] as const).flatMap((kind) =>
        Object.keys(expect[kind] ?? {}).map((user): [string, (string | number)[]] => [
          user,
          ['expect', kind, user],
        ]),
      ),
    ]
    const checked = new Map<string, boolean>()
    for (const [user, path] of named) {
      if (!checked.has(user)) {
        const answer = await this.deps.control({
          method: 'GET',
          url: `/users/${encodeURIComponent(user)}`,
        })
        checked.set(user, answer.status === 200)
      }
      if (checked.get(user) === false)
        this.#failures.push(`${formatDirectoryPath(path)}: ${user} is not a user of the directory`)
    }
  }

  async #play(): Promise<void> {
    const { script, expect = {}, observe = [] } = this.document
    const observed = [
      ...observe,
      ...Object.keys(expect.events ?? {}),
      ...script.flatMap((step) => (step.as === undefined ? [] : [step.as])),
    ]
    this.#observers = new ScenarioObservers(
      this.deps.events,
      observed,
      () => this.#elapsed(),
      (user, at, event) => this.#note(at, 'event', () => eventLine(event, this.#calls), user),
    )
    const baselines = await this.#logBaselines()
    const behaviours = new ScenarioBehaviours(
      this.document.world ?? {},
      this.deps.telephony,
      this.#calls,
      (at, text) => this.#note(at, 'behaviour', text),
    )
    const steps = new ScenarioSteps(this.deps, this.#calls, this.#sessions)
    const times = stepTimes(this.document)
    const end = Math.max(durationMs(this.document.end ?? 0) ?? 0, times.at(-1) ?? 0)
    let next = 0
    for (let moment = 0; ; moment++) {
      if (moment > MAX_MOMENTS) {
        this.#failures.push(`the run went through ${MAX_MOMENTS} moments without reaching its end`)
        break
      }
      await this.#settle(behaviours)
      while (next < script.length && (times[next] ?? 0) <= this.#elapsed()) {
        const step = script[next] as (typeof script)[number]
        const at = this.#elapsed()
        // Noted first, so that the timeline shows the step before the events it causes.
        let text = ''
        this.#note(at, 'step', () => text, step.as)
        const done = await steps.run(step, next)
        text = done.text
        this.#steps.push({
          step: next,
          at: seconds(at),
          do: step.do,
          ...(step.as !== undefined && { as: step.as }),
          outcome: done.outcome,
          ...(done.status !== undefined && { status: done.status }),
          ...(done.detail !== undefined && { detail: done.detail }),
        })
        next++
        if (done.outcome === 'failed') {
          this.#failures.push(done.detail ?? done.text)
          this.#notRun(next)
          return this.#judge(baselines)
        }
        await this.#settle(behaviours)
      }
      const now = this.#elapsed()
      if (next >= script.length && now >= end) break
      const dueAt = this.deps.clock.nextDueAt()
      const target = Math.min(
        times[next] ?? end,
        end,
        behaviours.nextAt() ?? end,
        dueAt === undefined ? end : dueAt - this.#start,
      )
      await this.#sessions.keepAlive()
      await this.deps.clock.advance(Math.max(0, target - now))
    }
    await this.#judge(baselines)
  }

  /** Runs everything due now: the platform's timers, the world's acts, and what they start, until quiet. */
  async #settle(behaviours: ScenarioBehaviours): Promise<void> {
    for (let round = 0; round < MAX_MOMENTS; round++) {
      await this.deps.settle()
      const now = this.#elapsed()
      behaviours.observe(now)
      const dueAt = this.deps.clock.nextDueAt()
      if (dueAt !== undefined && dueAt <= this.deps.clock.now()) {
        await this.deps.clock.advance(0)
        continue
      }
      if (!(await behaviours.runDue(now))) return
    }
  }

  /** The newest record of each user whose log is expected: what is newer was written during the run. */
  async #logBaselines(): Promise<Map<string, number>> {
    const baselines = new Map<string, number>()
    for (const user of Object.keys(this.document.expect?.comlog ?? {})) {
      const records = await this.#records(user, 1)
      baselines.set(user, records?.[0]?.recordId ?? 0)
    }
    return baselines
  }

  async #records(user: string, limit: number): Promise<{ recordId: number }[] | undefined> {
    const answer = await this.deps.control({
      method: 'GET',
      url: `/users/${encodeURIComponent(user)}/comlog?limit=${limit}`,
    })
    if (answer.status !== 200) {
      this.#failures.push(`${formatDirectoryPath(['expect', 'comlog', user])}: ${helpOf(answer)}`)
      return undefined
    }
    return (answer.body as { records: { recordId: number }[] }).records
  }

  async #judge(baselines: ReadonlyMap<string, number>): Promise<void> {
    const expect = this.document.expect ?? {}
    const observers = this.#observers
    for (const [user, items] of Object.entries(expect.events ?? {}))
      this.#expect(judgeEvents(user, items, observers?.of(user) ?? [], this.#calls))
    for (const [user, records] of Object.entries(expect.comlog ?? {})) {
      const all = await this.#records(user, 1000)
      if (all === undefined) continue
      const written = all
        .filter((record) => record.recordId > (baselines.get(user) ?? 0))
        .sort((a, b) => a.recordId - b.recordId)
      this.#expect(judgeRecords(user, records, written, this.#calls))
    }
    for (const [user, counters] of Object.entries(expect.eventSummary ?? {}))
      this.#expect(judgeSummary(user, counters, await this.deps.eventSummary(user), this.#calls))
  }

  #expect(outcome: ExpectationOutcome): void {
    this.#expectations.push(outcome)
    if (!outcome.passed) this.#failures.push(`${outcome.expectation}: ${outcome.detail}`)
  }

  /** The steps from `from` on, which an earlier failure kept from running. */
  #notRun(from: number): void {
    const times = stepTimes(this.document)
    this.document.script.slice(from).forEach((step, offset) => {
      this.#steps.push({
        step: from + offset,
        at: seconds(times[from + offset] ?? 0),
        do: step.do,
        ...(step.as !== undefined && { as: step.as }),
        outcome: 'not run',
      })
    })
  }

  #result(): ScenarioResult {
    const { name, description } = this.document
    const timeline = this.#timeline.map(({ entry, text }) => ({ ...entry, text: text() }))
    return {
      name,
      ...(description !== undefined && { description }),
      passed: this.#failures.length === 0,
      duration: seconds(this.#elapsed()),
      failures: this.#failures,
      timeline,
      steps: this.#steps,
      expectations: this.#expectations,
      calls: this.#calls.entries(),
      events: this.#observers?.all() ?? {},
    }
  }
}

/** The time of each step, in milliseconds from the start: `at`, or `after` the previous step's time. */
export function stepTimes(document: ScenarioDocument): number[] {
  let time = 0
  return document.script.map((step) => {
    time =
      step.at !== undefined
        ? Math.max(time, durationMs(step.at) ?? time)
        : time + (durationMs(step.after ?? 0) ?? 0)
    return time
  })
}
