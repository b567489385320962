/**
 * What a fuzz run tried and found, per operation: how many inputs, which statuses they got, how many were
 * refused, and the failure if any. `npm run fuzz` prints it (run-fuzz.mjs): the test writes it to the file
 * FUZZ_SUMMARY names.
 */
import { writeFileSync } from 'node:fs'

/** One operation's share of a run. */
export interface OperationSummary {
  inputs: number
  statuses: Record<string, number>
  failure?: string
}

/** The run's summary, by operation label, and how long it took. */
export class FuzzSummary {
  readonly operations: Record<string, OperationSummary> = {}
  readonly #startedAt = Date.now()

  constructor(readonly runsPerOperation: number) {}

  /** Counts an answer of `status` (with its error type, if any) to an input of `label`. */
  answered(label: string, status: string): void {
    const operation = this.of(label)
    operation.inputs++
    operation.statuses[status] = (operation.statuses[status] ?? 0) + 1
  }

  failed(label: string, failure: string): void {
    this.of(label).failure = failure
  }

  /** Writes the summary as JSON to `file`. */
  write(file: string): void {
    const summary = {
      runsPerOperation: this.runsPerOperation,
      seconds: Math.round((Date.now() - this.#startedAt) / 1000),
      operations: this.operations,
    }
    writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`)
  }

  private of(label: string): OperationSummary {
    this.operations[label] ??= { inputs: 0, statuses: {} }
    return this.operations[label]
  }
}
