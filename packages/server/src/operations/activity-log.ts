/**
 * The info lines that tell a developer what the simulated platform did (docs/operations.md, "Logs"): each call
 * created, answered and ended, and each reset, restore and snapshot. The call lines come from the engine's
 * `onCommitted` hook, after the command is stored and its events published, off the request's path; they read
 * only the calls the command changed, and nothing at all when info is off.
 */
import type { Logger } from 'pino'
import type { StatesReport } from '../platform/sandbox/platform-states.js'
import type { Committed } from '../platform/telephony/telephony-service.js'
import type { CallRecord, Endpoint } from '../platform/telephony/telephony-state.js'

/** What the platform tells of its activity (PlatformOptions.activity). */
export interface PlatformActivity {
  /** A command of the call engine stored and published. */
  committed(committed: Committed): void
  /** A reset, restore or snapshot done. */
  states(report: StatesReport): void
}

/** A party as a line shows it: `alice (1001)`, `VOICEMAIL 8000`, or the outside number. */
function party(endpoint: Endpoint): string {
  if (endpoint.loginName !== undefined) return `${endpoint.loginName} (${endpoint.number})`
  if (endpoint.service !== undefined) return `${endpoint.service} ${endpoint.number}`
  return endpoint.number
}

function parties(call: CallRecord): string[] {
  return call.connections.map((connection) => party(connection.endpoint))
}

/** The parties whose ringing connection became ACTIVE between `before` and `after`. */
function answeredBy(before: CallRecord, after: CallRecord): string[] {
  const ringing = new Set(
    before.connections
      .filter((connection) => connection.state === 'RINGING_INCOMING')
      .map((connection) => connection.endpoint.number),
  )
  if (ringing.size === 0) return []
  return after.connections
    .filter(
      (connection) => connection.state === 'ACTIVE' && ringing.has(connection.endpoint.number),
    )
    .map((connection) => party(connection.endpoint))
}

/** The cause an event of the command gave for the call, if any (`BUSY`, `FORWARDED`...). */
function causeOf(committed: Committed, callRef: string): string | undefined {
  for (const event of committed.events) {
    const { cause } = event as { callRef?: unknown; cause?: unknown }
    if ((event as { callRef?: unknown }).callRef === callRef && typeof cause === 'string')
      return cause
  }
  return undefined
}

/** Logs the calls a stored command created, answered and ended. */
export function logCalls(logger: Logger, committed: Committed): void {
  // A reset's or restore's calls did not start nor end: they were put back (docs/sandbox.md).
  if (committed.restored || !logger.isLevelEnabled('info')) return
  const { before, after, changes, command } = committed
  for (const callRef of changes.changedCallRefs) {
    const call = after.calls.get(callRef)
    if (call === undefined) continue
    const previous = before.calls.get(callRef)
    if (previous === undefined) {
      const [caller] = call.connections
      logger.info(
        {
          callRef,
          ...(caller && { from: party(caller.endpoint) }),
          to: party(call.initialCalled),
          parties: parties(call),
          command,
        },
        'call created',
      )
      continue
    }
    const answered = answeredBy(previous, call)
    if (answered.length > 0)
      logger.info({ callRef, answeredBy: answered, parties: parties(call) }, 'call answered')
  }
  for (const callRef of changes.removedCallRefs) {
    const call = before.calls.get(callRef)
    if (call === undefined) continue
    const cause = causeOf(committed, callRef)
    logger.info(
      { callRef, parties: parties(call), reason: command, ...(cause && { cause }) },
      'call ended',
    )
  }
}

/** Logs a reset, restore or snapshot, and the clock it set back or forward. */
export function logStates(logger: Logger, report: StatesReport): void {
  if (report.action === 'snapshot') {
    const { snapshot, rows, bytes, durationMs } = report
    logger.info({ snapshot, rows, bytes, durationMs }, 'snapshot saved')
    return
  }
  const { action, clock, ...outcome } = report
  logger.info(outcome, action === 'reset' ? 'platform reset' : 'snapshot restored')
  if (clock !== undefined)
    logger.info(
      {
        from: new Date(clock.from).toISOString(),
        to: new Date(clock.to).toISOString(),
        by: action,
      },
      'clock set',
    )
}

/** The platform's activity, logged by `logger`. */
export function activityLog(logger: Logger): PlatformActivity {
  return {
    committed: (committed) => logCalls(logger, committed),
    states: (report) => logStates(logger, report),
  }
}
