/**
 * The flows every SDK runs against us, written once and played by each client's suite with that client's
 * habits (sdk-client.ts): each step sends the exact request the SDK sends for one operation (wire facts 5.5,
 * 7, 11; census 3) and reads the answer as the SDK does (sdk-readers.ts). Each step records the operation
 * it covered as `METHOD /path` with `{}` for path parameters, the census's notation, so that each suite
 * can check it covers every operation its SDK calls and we serve.
 */
import { ACD_ABANDON_FLOW, ACD_FLOWS, ACD_PILOT_FLOWS } from './acd-flows.js'
import { CALL_FLOWS } from './call-flows.js'
import { COMLOG_FLOWS } from './comlog-flows.js'
import { COMPAT_FLOWS } from './compat-flows.js'
import { DESK_SHARING_FLOWS } from './desk-sharing-flows.js'
import { DIRECTORY_FLOWS } from './directory-flows.js'
import type { Flow } from './flow-support.js'
import { HUNTING_GROUP_FLOWS } from './hunting-group-flows.js'
import { MINI_MESSAGE_FLOWS } from './mini-message-flows.js'
import { O2G_FLOWS } from './o2g-flows.js'
import { ROUTING_FLOWS } from './routing-flows.js'
import { SESSION_FLOWS } from './session-flows.js'
import { SYSTEM_FLOWS } from './system-flows.js'
import { VOICEMAIL_FLOWS } from './voicemail-flows.js'

export type { Coverage, Flow } from './flow-support.js'

/** Every flow, in the order the suites play them. */
export const FLOWS: readonly Flow[] = [
  ...SESSION_FLOWS,
  ...CALL_FLOWS,
  ...HUNTING_GROUP_FLOWS,
  ...DESK_SHARING_FLOWS,
  ...O2G_FLOWS,
  ...COMPAT_FLOWS,
  ...ROUTING_FLOWS,
  ...COMLOG_FLOWS,
  ...DIRECTORY_FLOWS,
  ...VOICEMAIL_FLOWS,
  ...MINI_MESSAGE_FLOWS,
  ...SYSTEM_FLOWS,
  ...ACD_FLOWS,
  ACD_ABANDON_FLOW,
  ...ACD_PILOT_FLOWS,
]
