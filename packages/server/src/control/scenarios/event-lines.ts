/**
 * An event as one line of a scenario's timeline: its name and what tells it apart (the call by its name, the
 * call's state, the cause, the counters), never what differs from run to run (callRefs, ids, dates).
 */
import { isRecord } from '../../platform/directory/schema-problems.js'
import type { CallNames } from './call-names.js'

const CALL_EVENTS = new Set(['OnCallCreated', 'OnCallModified', 'OnCallRemoved', 'OnCallAppeared'])

/**
 * `OnCallModified c1 ACTIVE`, `OnCallRemoved c1 cause NOT_ANSWERED`, `OnEventSummaryUpdated missedCallsNb 1`,
 * `OnAgentStateChanged WRAPUP`.
 */
export function eventLine(event: Record<string, unknown>, calls: CallNames): string {
  const name = String(event['eventName'])
  const parts = [name, ...detailsOf(name, event, calls)]
  return parts.join(' ')
}

function detailsOf(name: string, event: Record<string, unknown>, calls: CallNames): string[] {
  if (CALL_EVENTS.has(name)) return callDetails(event, calls)
  switch (name) {
    case 'OnUserStateModified':
      return [String(event['state'])]
    case 'OnComRecordCreated':
      return recordDetails(event['record'], String(event['loginName']), calls)
    case 'OnEventSummaryUpdated':
      return counters(event['eventSummary'])
    case 'OnMessageAdded':
      return messageDetails(event['voiceMessage'])
    case 'OnAgentStateChanged':
      return agentDetails(event['state'])
    case 'OnCallbackRequestAdded':
    case 'OnDeviceMuteSuccess':
    case 'OnDeviceMuteFailed':
      return typeof event['deviceId'] === 'string' ? [event['deviceId']] : []
    default:
      return []
  }
}

function callDetails(event: Record<string, unknown>, calls: CallNames): string[] {
  const parts: string[] = []
  if (typeof event['callRef'] === 'string') parts.push(calls.nameOf(event['callRef']))
  if (typeof event['previousCallRef'] === 'string')
    parts.push(`(was ${calls.nameOf(event['previousCallRef'])})`)
  const callData = event['callData']
  if (isRecord(callData) && typeof callData['state'] === 'string') parts.push(callData['state'])
  if (event['eventName'] === 'OnCallCreated') {
    const others = participantIds(event['participants'])
    if (others.length > 0) parts.push(`with ${others.join(', ')}`)
  }
  const added = participantIds(event['addedParticipants'])
  if (added.length > 0) parts.push(`added ${added.join(', ')}`)
  const removed = event['removedParticipantIds']
  if (Array.isArray(removed) && removed.length > 0) parts.push(`removed ${removed.join(', ')}`)
  if (typeof event['cause'] === 'string') parts.push(`cause ${event['cause']}`)
  if (typeof event['newDestination'] === 'string') parts.push(`to ${event['newDestination']}`)
  return parts
}

/** A communication log record in one line: its call and its owner's side (`c1 CALLEE not answered NORMAL`). */
export function recordLine(record: unknown, owner: string, calls: CallNames): string {
  return recordDetails(record, owner, calls).join(' ')
}

function participantIds(participants: unknown): string[] {
  if (!Array.isArray(participants)) return []
  return participants
    .map((participant) => (isRecord(participant) ? participant['participantId'] : undefined))
    .filter((id): id is string => typeof id === 'string')
}

/** The record's call, and the owner's side: its role, answered or not, its reason. */
function recordDetails(record: unknown, owner: string, calls: CallNames): string[] {
  if (!isRecord(record)) return []
  const parts = typeof record['comRef'] === 'string' ? [calls.nameOf(record['comRef'])] : []
  const participants = Array.isArray(record['participants']) ? record['participants'] : []
  const own = participants.find(
    (participant) =>
      isRecord(participant) &&
      isRecord(participant['identity']) &&
      isRecord(participant['identity']['id']) &&
      participant['identity']['id']['loginName'] === owner,
  )
  if (isRecord(own))
    parts.push(
      String(own['role']),
      own['answered'] === true ? 'answered' : 'not answered',
      String(own['reason']),
    )
  return parts
}

/** An agent's state: its sub-state logged on (`WITHDRAW 1` with its reason), else LOG_OFF. */
function agentDetails(state: unknown): string[] {
  if (!isRecord(state)) return []
  const place = typeof state['subState'] === 'string' ? state['subState'] : state['mainState']
  return [
    ...(typeof place === 'string' ? [place] : []),
    ...(typeof state['withdrawReason'] === 'number' ? [String(state['withdrawReason'])] : []),
  ]
}

function counters(summary: unknown): string[] {
  if (!isRecord(summary)) return []
  return Object.entries(summary)
    .filter(([key, value]) => key !== 'eventWaiting' && typeof value === 'number' && value > 0)
    .map(([key, value]) => `${key} ${String(value)}`)
}

function messageDetails(message: unknown): string[] {
  if (!isRecord(message)) return []
  const from = message['from']
  const id = isRecord(from) && isRecord(from['id']) ? from['id'] : undefined
  const caller = id?.['loginName'] ?? id?.['phoneNumber']
  return [
    ...(caller === undefined ? [] : [`from ${String(caller)}`]),
    ...(typeof message['duration'] === 'number' ? [`${message['duration']}s`] : []),
  ]
}
