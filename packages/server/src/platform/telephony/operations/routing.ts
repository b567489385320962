/**
 * How a call reaching a user follows that user's routing (docs/routing.md): an immediate forward, do not
 * disturb, a forward or overflow on busy when the call arrives, and a forward or overflow on no answer when
 * the ringing timeout ends. The routing is read through `context.routing`, the same way the directory is: the
 * engine stays a pure function of its input.
 */
import type { CallCause } from '@openness/wire'
import type { RoutingProfile } from '../../routing/routing-profile.js'
import type { EngineContext } from '../engine-operation.js'
import type { CallRecord, Connection, Endpoint } from '../telephony-state.js'
import { type Transaction, userStateIn } from '../transaction.js'
import { isLoggedOffNumber } from './desk-seats.js'
import { addNewDestination, devicesOf, forgetIfNoUser } from './feature-support.js'
import { clearCall } from './guards.js'
import { ring, stopRinging, voicemailAnswers } from './ringing.js'

/** The most diversions (forwards, DND, overflows) one call takes: a chain longer than that stops there. */
export const MAX_DIVERSIONS = 5

/** The causes a diversion shows on the call's events. */
type DiversionCause = Extract<CallCause, 'FORWARDED' | 'DO_NOT_DISTURB' | 'OVERFLOWN'>

/** Where the call goes instead of ringing the user, and why. */
interface Diversion {
  destination: Endpoint
  cause: DiversionCause
}

/** What the user's routing does with a call that reaches them; undefined: it rings the user. */
type Outcome = Diversion | 'REFUSE' | undefined

/** The user's voice mail as a service endpoint, when they have one. */
function voicemailOf(context: EngineContext, loginName: string): Endpoint | undefined {
  const number = context.directory.featuresOf?.(loginName)?.voicemail
  return number === undefined ? undefined : { number, service: 'VOICEMAIL' }
}

/** Where a forward of `loginName` sends calls; undefined when it reaches nothing now (the call rings the user). */
function forwardDestination(
  context: EngineContext,
  loginName: string,
  target: NonNullable<RoutingProfile['forward']>['target'],
): Endpoint | undefined {
  if (target.type === 'VOICEMAIL') return voicemailOf(context, loginName)
  const endpoint = context.directory.resolve(target.number)
  return endpoint?.service === 'VOICEMAIL' ? voicemailOf(context, loginName) : endpoint
}

/** Where an overflow sends calls: the voice mail, or the user's associate (another device of theirs in service). */
function overflowDestination(
  transaction: Transaction,
  context: EngineContext,
  ringing: Endpoint,
  loginName: string,
  target: NonNullable<RoutingProfile['overflow']>['target'],
): Endpoint | undefined {
  if (target === 'VOICEMAIL') return voicemailOf(context, loginName)
  const associate = devicesOf(transaction.state.devices, loginName).find(
    (device) => device.deviceId !== ringing.deviceId && device.state === 'IN_SERVICE',
  )
  return associate && { number: associate.deviceId, deviceId: associate.deviceId, loginName }
}

/** True when a route with this condition applies to the situation. */
function applies(condition: string, situation: 'BUSY' | 'NO_ANSWER'): boolean {
  return condition === situation || condition === 'BUSY_NO_ANSWER'
}

/** The forward, else the overflow, that applies when the user is busy or does not answer. */
function onCondition(
  transaction: Transaction,
  context: EngineContext,
  ringing: Endpoint,
  loginName: string,
  profile: RoutingProfile,
  situation: 'BUSY' | 'NO_ANSWER',
): Diversion | undefined {
  const { forward, overflow } = profile
  if (forward !== undefined && applies(forward.condition, situation)) {
    const destination = forwardDestination(context, loginName, forward.target)
    if (destination !== undefined) return { destination, cause: 'FORWARDED' }
  }
  if (overflow !== undefined && applies(overflow.condition, situation)) {
    const destination = overflowDestination(
      transaction,
      context,
      ringing,
      loginName,
      overflow.target,
    )
    if (destination !== undefined) return { destination, cause: 'OVERFLOWN' }
  }
  return undefined
}

/**
 * What the routing of the user of `endpoint` does with a call arriving there: an immediate forward first,
 * then do not disturb (the voice mail, else refused), then a forward or overflow on busy when the user is
 * BUSY (an ACTIVE or HELD connection) or a desk-sharing user logged on nowhere; otherwise the call rings the
 * user.
 */
function onArrival(transaction: Transaction, context: EngineContext, endpoint: Endpoint): Outcome {
  const { loginName } = endpoint
  if (loginName === undefined || endpoint.deviceId === undefined) return undefined
  const profile = context.routing?.(loginName)
  if (profile === undefined) return undefined
  if (profile.forward?.condition === 'IMMEDIATE') {
    const destination = forwardDestination(context, loginName, profile.forward.target)
    if (destination !== undefined) return { destination, cause: 'FORWARDED' }
  }
  if (profile.dnd) {
    const voicemail = voicemailOf(context, loginName)
    return voicemail === undefined ? 'REFUSE' : { destination: voicemail, cause: 'DO_NOT_DISTURB' }
  }
  // A desk-sharing user logged on nowhere is as busy: nothing can ring (reachParty refuses the call after).
  if (isLoggedOffNumber(transaction, context, endpoint.deviceId, loginName))
    return onCondition(transaction, context, endpoint, loginName, profile, 'BUSY')
  if (userStateIn(transaction.lookup(), loginName) !== 'BUSY') return undefined
  return onCondition(transaction, context, endpoint, loginName, profile, 'BUSY')
}

/**
 * True when `destination` is already a party of the call, or a user who is: a forward to the caller (the
 * forward's own target calling the user who forwards) is not followed, the call reaches the user it was
 * placed to, as on a real platform.
 */
function inCall(call: CallRecord, destination: Endpoint, except?: Connection): boolean {
  return call.connections.some(
    (connection) =>
      connection !== except &&
      (connection.endpoint.number === destination.number ||
        (destination.loginName !== undefined &&
          connection.endpoint.loginName === destination.loginName)),
  )
}

/** True while the call may take one more diversion. */
function canDivert(call: CallRecord): boolean {
  return (call.diversions ?? 0) < MAX_DIVERSIONS
}

/**
 * Makes the call reach `endpoint` as its routing says (where the engine used to ring the called party): it
 * rings `endpoint`, or whatever the chain of forwards leads to, with `lastRedirecting` the last user who
 * diverted it and the diversion's cause on the step's events; a voice mail answers at once. A chain stops at
 * MAX_DIVERSIONS, where it would come back to a number it went through (a loop is cut: the call rings
 * there), and where it would reach a party of the call (`inCall`). Refused (DND, no voice mail): the call is placed, then released with DO_NOT_DISTURB. `diverted`
 * is the diversion that led here (no answer). Returns the number the call reached; undefined when refused.
 */
export function reachParty(
  transaction: Transaction,
  call: CallRecord,
  endpoint: Endpoint,
  context: EngineContext,
  diverted?: { cause: DiversionCause; from: Endpoint },
): string | undefined {
  let target = endpoint
  let cause = diverted?.cause
  let redirecting = diverted?.from
  const visited = new Set([endpoint.number, ...(diverted ? [diverted.from.number] : [])])
  while (canDivert(call)) {
    const next = onArrival(transaction, context, target)
    if (next === undefined) break
    if (next === 'REFUSE') {
      refuse(transaction, call)
      return undefined
    }
    if (visited.has(next.destination.number) || inCall(call, next.destination)) break
    visited.add(next.destination.number)
    call.diversions = (call.diversions ?? 0) + 1
    redirecting = target
    target = next.destination
    cause = next.cause
  }
  if (redirecting !== undefined) call.lastRedirecting = redirecting
  if (isLoggedOffNumber(transaction, context, target.deviceId, target.loginName)) {
    unobtainable(transaction, call)
    return undefined
  }
  const voicemail = target.service === 'VOICEMAIL'
  ring(transaction, call, target, context, { ringingTimeout: !voicemail })
  if (cause === undefined && !voicemail) return target.number
  transaction.commit(cause)
  if (forgetIfNoUser(transaction, call)) return target.number
  if (voicemail) voicemailAnswers(transaction, call)
  return target.number
}

/**
 * The call is placed (its caller sees it), then released with DESTINATION_NOT_OBTAINABLE: it reached the number
 * of a desk-sharing user logged on at no set, whose routing sends it nowhere (docs/call-model.md, "Desk sharing").
 */
function unobtainable(transaction: Transaction, call: CallRecord): void {
  transaction.commit()
  if (forgetIfNoUser(transaction, call)) return
  clearCall(transaction, call, [], 'DESTINATION_NOT_OBTAINABLE')
}

/** The call is placed (its caller sees it), then released with DO_NOT_DISTURB: the user takes no calls. */
function refuse(transaction: Transaction, call: CallRecord): void {
  transaction.commit()
  if (forgetIfNoUser(transaction, call)) return
  clearCall(transaction, call, [], 'DO_NOT_DISTURB')
}

/**
 * At the ringing timeout of a user's `ringing` connection: their forward or overflow on no answer takes the
 * call elsewhere (the user sees OnCallRemoved with the cause and `newDestination`). Returns false when none
 * applies (the call is then not answered, as without routing).
 */
export function divertOnNoAnswer(
  transaction: Transaction,
  call: CallRecord,
  ringing: Connection,
  context: EngineContext,
): boolean {
  const { loginName } = ringing.endpoint
  if (loginName === undefined || call.pendingCallee !== undefined || !canDivert(call)) return false
  const profile = context.routing?.(loginName)
  if (profile === undefined) return false
  const next = onCondition(transaction, context, ringing.endpoint, loginName, profile, 'NO_ANSWER')
  if (next === undefined) return false
  if (inCall(call, next.destination, ringing)) return false
  stopRinging(transaction, call, ringing)
  call.diversions = (call.diversions ?? 0) + 1
  const from = transaction.events.length
  const reached = reachParty(transaction, call, next.destination, context, {
    cause: next.cause,
    from: ringing.endpoint,
  })
  if (reached !== undefined) addNewDestination(transaction, from, call.callRef, reached)
  return true
}
