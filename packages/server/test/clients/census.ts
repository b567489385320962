/**
 * The operations each SDK calls that this server serves, from the census
 * (`shared/reference/client-census.md`, section 2, rows marked served), in its notation: `METHOD /path`
 * relative to `/api/rest/1.0` unless it starts with `/api/rest`, `{}` for a path parameter. A suite
 * checks its flows cover every row of its SDK; a feature issue that serves more adds its rows here.
 */
import type { ClientProfile } from './sdk-client.js'

type Tag = ClientProfile['tag']

const ALL: readonly Tag[] = ['N', 'J', 'C#', 'JS']

const SERVED: readonly (readonly [string, readonly Tag[]])[] = [
  ['GET /api/rest', ALL],
  ['GET /api/rest/authenticate', ALL],
  ['POST /sessions', ALL],
  ['GET /sessions', ['J', 'C#']],
  ['POST /sessions/keepalive', ALL],
  ['DELETE /sessions', ALL],
  ['POST /subscriptions', ALL],
  ['POST <privatePollingUrl>', ALL],
  ['DELETE /subscriptions/{}', ['J', 'C#']],
  ['GET /logins', ALL],
  ['GET /users', ALL],
  ['GET /users/{}', ALL],
  ['PUT /users/{}/password', ALL],
  ['GET /users/{}/preferences', ALL],
  ['GET /users/{}/preferences/supportedLanguages', ALL],
  ['POST /telephony/basicCall', ALL],
  ['POST /telephony/basicCall/answer', ALL],
  ['POST /telephony/basicCall/dropme', ALL],
  ['GET /telephony/calls', ALL],
  ['POST /telephony/calls', ALL],
  ['DELETE /telephony/calls/{}', ['N', 'J', 'C#']],
  ['GET /telephony/calls/{}', ALL],
  ['POST /telephony/calls/{}/alternate', ALL],
  ['POST /telephony/calls/{}/answer', ALL],
  ['POST /telephony/calls/{}/attachdata', ALL],
  ['POST /telephony/calls/{}/blindtransfer', ALL],
  ['POST /telephony/calls/{}/callback', ALL],
  ['GET /telephony/calls/{}/deviceLegs', ALL],
  ['GET /telephony/calls/{}/deviceLegs/{}', ALL],
  ['POST /telephony/calls/{}/dropme', ALL],
  ['POST /telephony/calls/{}/hold', ALL],
  ['POST /telephony/calls/{}/merge', ALL],
  ['POST /telephony/calls/{}/overflowToVoiceMail', ALL],
  ['POST /telephony/calls/{}/park', ALL],
  ['GET /telephony/calls/{}/participants', ALL],
  ['DELETE /telephony/calls/{}/participants/{}', ALL],
  ['GET /telephony/calls/{}/participants/{}', ALL],
  ['POST /telephony/calls/{}/recording', ALL],
  ['POST /telephony/calls/{}/reconnect', ALL],
  ['POST /telephony/calls/{}/redirect', ALL],
  ['POST /telephony/calls/{}/retrieve', ALL],
  ['POST /telephony/calls/{}/sendDtmf', ALL],
  ['POST /telephony/calls/{}/transfer', ALL],
  ['GET /telephony/devices', ALL],
  ['GET /telephony/devices/{}', ALL],
  ['POST /telephony/devices/{}/intrusion', ALL],
  ['POST /telephony/devices/{}/ithmicro', ['J']],
  ['PUT /telephony/devices/{}/ithmicro', ['N']],
  ['POST /telephony/devices/{}/pickup', ALL],
  ['POST /telephony/devices/{}/unpark', ALL],
  ['GET /telephony/incomingCallbacks', ALL],
  ['DELETE /telephony/incomingCallbacks', ALL],
  ['DELETE /telephony/incomingCallbacks/{}', ['N', 'J', 'JS']],
  ['POST /telephony/outgoingCallbacks', ALL],
  ['GET /telephony/state', ALL],
  ['POST /telephony/state/snapshot', ALL],
  ['GET /routing', ALL],
  ['POST /routing', ALL],
  ['GET /routing/dnd', ALL],
  ['POST /routing/dnd', ALL],
  ['DELETE /routing/dnd', ALL],
  ['GET /routing/forwardroute', ALL],
  ['POST /routing/forwardroute', ALL],
  ['DELETE /routing/forwardroute', ALL],
  ['GET /routing/overflowroute', ALL],
  ['POST /routing/overflowroute', ALL],
  ['DELETE /routing/overflowroute', ALL],
  ['GET /routing/state', ALL],
  ['POST /routing/state/snapshot', ALL],
  ['GET /comlog/records', ALL],
  ['PUT /comlog/records', ALL],
  ['DELETE /comlog/records', ALL],
  ['GET /comlog/records/{}', ALL],
  ['DELETE /comlog/records/{}', ALL],
  ['GET /eventSummary', ALL],
  ['POST /directory/search', ALL],
  ['GET /directory/search', ALL],
  ['DELETE /directory/search', ALL],
  ['GET /messaging/mailboxes', ALL],
  ['POST /messaging/mailboxes/{}', ALL],
  ['GET /messaging/mailboxes/{}/voicemails', ALL],
  ['GET /messaging/mailboxes/{}/voicemails/{}', ALL],
  ['DELETE /messaging/mailboxes/{}/voicemails', ['N', 'J', 'C#']],
  ['DELETE /messaging/mailboxes/{}/voicemails/{}', ['N', 'J', 'C#']],
  ['GET /system/status', ALL],
]

/** The served operations `tag`'s SDK calls, sorted. */
export function servedOperations(tag: Tag): string[] {
  return SERVED.filter(([, tags]) => tags.includes(tag))
    .map(([operation]) => operation)
    .sort()
}
