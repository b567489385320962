/**
 * The rows of the specification's "Call control" table (numbering aside: numbering.test.ts), the SDKs' mini
 * messages (docs/telephony-api.md, "Mini messages"), desk sharing and the O2G additions they call (reconnect,
 * intrusion, ithmicro), with what each requires: the license, the user
 * type, and whether it names a call or a device of the user.
 */
export type License = 'basic' | 'advanced'

export interface EndpointRow {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT'
  /** With {callRef}, {deviceId}, {legId}, {participantId}, {callbackId} to fill. */
  path: string
  license: License
  userType?: 'STANDARD' | 'MULTIMEDIA'
  /** A valid body (as far as its shape goes). */
  body?: Record<string, unknown>
  /**
   * A body the schema refuses; every row with a body has one. (Scalars are coerced to strings, as
   * Fastify's validation does by default, so a bad string is empty or not a string at all.)
   */
  badBody?: unknown
}

const device = { deviceId: '{deviceId}' }

export const ENDPOINTS: readonly EndpointRow[] = [
  {
    method: 'POST',
    path: '/basicCall',
    license: 'basic',
    body: { deviceId: '{deviceId}', callee: '1007', autoAnswer: true },
    badBody: { deviceId: '{deviceId}' },
  },
  {
    method: 'POST',
    path: '/basicCall/answer',
    license: 'basic',
    body: {},
    badBody: { deviceId: '' },
  },
  { method: 'POST', path: '/basicCall/dropme', license: 'basic' },
  { method: 'GET', path: '/calls', license: 'advanced' },
  {
    method: 'POST',
    path: '/calls',
    license: 'advanced',
    body: { deviceId: '{deviceId}', callee: '1007' },
    badBody: { deviceId: '{deviceId}', callee: '1007', colour: 'blue' },
  },
  { method: 'GET', path: '/calls/{callRef}', license: 'advanced' },
  { method: 'DELETE', path: '/calls/{callRef}', license: 'advanced' },
  {
    method: 'POST',
    path: '/calls/{callRef}/alternate',
    license: 'advanced',
    body: {},
    badBody: { x: 1 },
  },
  {
    method: 'POST',
    path: '/calls/{callRef}/answer',
    license: 'advanced',
    body: {},
    badBody: { x: 1 },
  },
  {
    method: 'POST',
    path: '/calls/{callRef}/attachdata',
    license: 'advanced',
    userType: 'STANDARD',
    body: { associatedData: 'order 42' },
    badBody: { associatedData: {} },
  },
  {
    method: 'POST',
    path: '/calls/{callRef}/blindtransfer',
    license: 'advanced',
    body: { transferTo: '1007' },
    badBody: { anonymous: true },
  },
  { method: 'POST', path: '/calls/{callRef}/callback', license: 'advanced', userType: 'STANDARD' },
  { method: 'GET', path: '/calls/{callRef}/deviceLegs', license: 'advanced' },
  { method: 'GET', path: '/calls/{callRef}/deviceLegs/{legId}', license: 'advanced' },
  {
    method: 'POST',
    path: '/calls/{callRef}/deviceLegs/{legId}',
    license: 'advanced',
    body: { deviceId: '{deviceId}' },
    badBody: {},
  },
  { method: 'POST', path: '/calls/{callRef}/dropme', license: 'advanced' },
  {
    method: 'POST',
    path: '/calls/{callRef}/hold',
    license: 'advanced',
    body: device,
    badBody: { x: 1 },
  },
  {
    method: 'POST',
    path: '/calls/{callRef}/merge',
    license: 'advanced',
    body: { heldCallRef: '{callRef}' },
    badBody: {},
  },
  { method: 'POST', path: '/calls/{callRef}/overflowToVoiceMail', license: 'advanced' },
  {
    method: 'POST',
    path: '/calls/{callRef}/park',
    license: 'advanced',
    userType: 'STANDARD',
    body: {},
    badBody: { parkTo: '' },
  },
  { method: 'GET', path: '/calls/{callRef}/participants', license: 'advanced' },
  {
    method: 'POST',
    path: '/calls/{callRef}/participants',
    license: 'advanced',
    userType: 'MULTIMEDIA',
    body: { participantId: '1007' },
    badBody: { callee: '1007' },
  },
  { method: 'GET', path: '/calls/{callRef}/participants/{participantId}', license: 'advanced' },
  { method: 'DELETE', path: '/calls/{callRef}/participants/{participantId}', license: 'advanced' },
  { method: 'POST', path: '/calls/{callRef}/recording?action=start', license: 'advanced' },
  {
    method: 'POST',
    path: '/calls/{callRef}/reconnect',
    license: 'advanced',
    body: { deviceId: '{deviceId}', enquiryCallRef: '{callRef}' },
    badBody: { deviceId: '{deviceId}' },
  },
  {
    method: 'POST',
    path: '/calls/{callRef}/redirect',
    license: 'advanced',
    body: { redirectTo: 'VOICEMAIL' },
    badBody: { redirectTo: '' },
  },
  {
    method: 'POST',
    path: '/calls/{callRef}/retrieve',
    license: 'advanced',
    body: {},
    badBody: { x: 1 },
  },
  {
    method: 'POST',
    path: '/calls/{callRef}/sendDtmf',
    license: 'advanced',
    userType: 'STANDARD',
    body: { number: '12#' },
    badBody: { number: '12x' },
  },
  {
    method: 'POST',
    path: '/calls/{callRef}/transfer',
    license: 'advanced',
    body: { heldCallRef: '{callRef}' },
    badBody: { heldCallRef: '' },
  },
  // Desk sharing (docs/telephony-api.md, "Desk sharing"): the user logs on at a set, and off.
  {
    method: 'POST',
    path: '/deskSharing',
    license: 'basic',
    body: { dssDeviceNumber: '1900' },
    badBody: { dssDeviceNumber: '' },
  },
  { method: 'DELETE', path: '/deskSharing', license: 'basic' },
  { method: 'GET', path: '/devices', license: 'advanced' },
  { method: 'GET', path: '/devices/{deviceId}', license: 'advanced' },
  { method: 'POST', path: '/devices/{deviceId}/intrusion', license: 'advanced' },
  // The interphony key: POST as the Java SDK sends it, PUT as the Node SDK does.
  { method: 'POST', path: '/devices/{deviceId}/ithmicro', license: 'advanced' },
  { method: 'PUT', path: '/devices/{deviceId}/ithmicro', license: 'advanced' },
  { method: 'POST', path: '/devices/{deviceId}/mute/true', license: 'advanced' },
  {
    method: 'POST',
    path: '/devices/{deviceId}/pickup',
    license: 'advanced',
    body: { otherCallRef: '{callRef}', otherPhoneNumber: '1002' },
    badBody: { otherCallRef: '{callRef}' },
  },
  {
    method: 'POST',
    path: '/devices/{deviceId}/unpark',
    license: 'advanced',
    userType: 'STANDARD',
    body: { heldCallRef: '{callRef}' },
    badBody: {},
  },
  { method: 'GET', path: '/incomingCallbacks', license: 'advanced', userType: 'STANDARD' },
  { method: 'DELETE', path: '/incomingCallbacks', license: 'advanced', userType: 'STANDARD' },
  {
    method: 'DELETE',
    path: '/incomingCallbacks/{callbackId}',
    license: 'advanced',
    userType: 'STANDARD',
  },
  {
    method: 'POST',
    path: '/outgoingCallbacks',
    license: 'advanced',
    userType: 'STANDARD',
    body: { callee: '1007' },
    badBody: { number: '1007' },
  },
  { method: 'GET', path: '/miniMessages', license: 'advanced' },
  {
    method: 'POST',
    path: '/miniMessages',
    license: 'advanced',
    body: { recipient: '1007', message: 'Call me back' },
    badBody: { recipient: '1007' },
  },
  { method: 'GET', path: '/state', license: 'basic' },
  { method: 'POST', path: '/state/snapshot', license: 'basic' },
]

/** Whether the row names a call, a device, neither. */
export const namesCall = (row: EndpointRow) =>
  row.path.includes('{callRef}') && !row.path.startsWith('/devices')
export const namesDevice = (row: EndpointRow) =>
  row.path.includes('{deviceId}') || JSON.stringify(row.body ?? {}).includes('{deviceId}')
