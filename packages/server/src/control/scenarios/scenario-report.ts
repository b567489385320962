/**
 * A scenario's result as text, for the command line (`npm run control -- scenarios run`): the timeline, one
 * line a moment, the expectations, and the verdict. Only the deterministic parts of the result: the same file
 * prints the same report at every run.
 */
import type { ScenarioResult, TimelineEntry } from './scenario-result.js'

/** Who a timeline line is about: the world, the operator, a user's application, a rule, or a user's event. */
function whoOf(entry: TimelineEntry): string {
  switch (entry.kind) {
    case 'world':
      return 'world'
    case 'behaviour':
      return 'rule'
    case 'step':
      return entry.user === undefined ? 'operator' : `${entry.user}'s app`
    case 'event':
      return `→ ${entry.user ?? ''}`
  }
}

/** The report of `result`. */
export function formatScenarioResult(result: ScenarioResult): string {
  const lines = [
    `Scenario ${result.name}${result.description ? `: ${firstParagraph(result.description)}` : ''}`,
    '',
  ]
  const who = result.timeline.map(whoOf)
  const width = Math.max(8, ...who.map((text) => text.length))
  result.timeline.forEach((entry, index) => {
    lines.push(`${`${entry.at}s`.padStart(8)}  ${(who[index] ?? '').padEnd(width)}  ${entry.text}`)
  })
  const skipped = result.steps.filter((step) => step.outcome === 'skipped').length
  const notRun = result.steps.filter((step) => step.outcome === 'not run').length
  if (result.expectations.length > 0) {
    lines.push('', 'Expectations:')
    for (const { expectation, passed, detail } of result.expectations)
      lines.push(`  ${passed ? '✓' : '✗'} ${expectation}: ${detail}`)
  }
  lines.push('')
  const met = result.expectations.filter((outcome) => outcome.passed).length
  const steps = `${result.steps.length} step${result.steps.length === 1 ? '' : 's'}${skipped ? `, ${skipped} skipped` : ''}${notRun ? `, ${notRun} not run` : ''}`
  if (result.passed)
    lines.push(
      `PASSED: ${steps}, ${met} expectation${met === 1 ? '' : 's'} met, ${result.duration}s of the service's clock`,
    )
  else {
    lines.push(`FAILED: ${steps}, ${met} of ${result.expectations.length} expectations met`)
    for (const failure of result.failures) lines.push(`  ${failure}`)
  }
  return `${lines.join('\n')}\n`
}

function firstParagraph(text: string): string {
  const [first = ''] = text.trim().split(/\n\s*\n/)
  return first.replace(/\s+/g, ' ')
}
