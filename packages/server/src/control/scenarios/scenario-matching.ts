/**
 * Partial matching of what a scenario expects against what happened (docs/scenarios.md, "Expectations"): the
 * fields given must be there with these values, the others may be anything; a list must have as many items,
 * each matched in turn; `null` means absent. Fields that carry a callRef take call names.
 */
import { isRecord } from '../../platform/directory/schema-problems.js'
import type { CallNames } from './call-names.js'

/** True for a field that carries a callRef: `callRef`, `comRef`, `previousCallRef`, `heldCallRef`... */
export function isCallRefKey(key: string): boolean {
  return key === 'callRef' || key === 'comRef' || key.endsWith('CallRef')
}

/** One difference: where, what was expected, what was there. */
export interface Mismatch {
  path: string
  expected: unknown
  actual: unknown
}

/** The differences between `expected` (partial) and `actual`; none when it matches. */
export function mismatches(expected: unknown, actual: unknown, calls: CallNames): Mismatch[] {
  const found: Mismatch[] = []
  compare(expected, actual, '', calls, found, false)
  return found
}

function compare(
  expected: unknown,
  actual: unknown,
  path: string,
  calls: CallNames,
  found: Mismatch[],
  callRef: boolean,
): void {
  if (expected === null || expected === undefined) {
    if (actual !== null && actual !== undefined) found.push({ path, expected: null, actual })
    return
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      found.push({ path, expected, actual })
      return
    }
    if (actual.length !== expected.length) {
      const items = (count: number) => `a list of ${count} item${count === 1 ? '' : 's'}`
      found.push({ path, expected: items(expected.length), actual: items(actual.length) })
      return
    }
    for (const [index, item] of expected.entries())
      compare(item, actual[index], `${path}[${index}]`, calls, found, callRef)
    return
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) {
      found.push({ path, expected, actual })
      return
    }
    for (const [key, value] of Object.entries(expected))
      compare(
        value,
        actual[key],
        path === '' ? key : `${path}.${key}`,
        calls,
        found,
        isCallRefKey(key),
      )
    return
  }
  if (callRef && typeof expected === 'string' && typeof actual === 'string') {
    // Names on both sides, so that the message reads the same at every run.
    const name = calls.nameOf(actual)
    if (name !== expected) found.push({ path, expected, actual: name })
    return
  }
  if (expected !== actual) found.push({ path, expected, actual })
}

/** A difference as a line: `callData.state: expected ACTIVE, got RINGING_OUTGOING`. */
export function describeMismatch({ path, expected, actual }: Mismatch): string {
  const where = path === '' ? '' : `${path}: `
  const hint =
    typeof expected === 'number' && typeof actual === 'string'
      ? ` (the API sends a string: write "${expected}" in quotes)`
      : ''
  return `${where}expected ${show(expected)}, got ${actual === undefined ? 'nothing' : show(actual)}${hint}`
}

/** A value in a message, short. */
export function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}
