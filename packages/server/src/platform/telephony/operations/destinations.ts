/**
 * Where a dialed number leads when it is a service that distributes calls (a hunting group, a pilot of the
 * contact center), and how a call reaches any destination: a group or a pilot distributes it, anything else is
 * reached as the called user's routing says.
 */
import type { SkillNeed } from '../../acd/contact-center.js'
import type { EngineContext } from '../engine-operation.js'
import type { CallRecord, Endpoint, TelephonyState } from '../telephony-state.js'
import type { Transaction } from '../transaction.js'
import { pilotReached, reachPilot } from './acd-distribution.js'
import { groupReached, reachGroup } from './hunting.js'
import { reachParty } from './routing.js'

/** The hunting group or pilot `dialed` is the number of, as a party; undefined for anything else. */
export function serviceReached(state: TelephonyState, dialed: string): Endpoint | undefined {
  return groupReached(state.huntingGroups, dialed) ?? pilotReached(state.acd, dialed)
}

/** Whether the endpoint is a service that distributes the calls it takes. */
export function isDistributor(endpoint: Endpoint): boolean {
  return endpoint.service === 'HUNTING_GROUP' || endpoint.service === 'ACD_PILOT'
}

/**
 * Makes the call reach `endpoint`: a hunting group or a pilot distributes it (`acd`: what a call to a pilot
 * asks for), anything else is reached as the called user's routing says (routing.ts `reachParty`).
 */
export function reachDestination(
  transaction: Transaction,
  call: CallRecord,
  endpoint: Endpoint,
  context: EngineContext,
  acd?: { skills?: SkillNeed[]; supervisedTransfer?: boolean },
): void {
  if (endpoint.service === 'HUNTING_GROUP') reachGroup(transaction, call, endpoint.number, context)
  else if (endpoint.service === 'ACD_PILOT')
    reachPilot(transaction, call, endpoint.number, context, acd)
  else reachParty(transaction, call, endpoint, context)
}
