/**
 * Values that mean something to the service, by the name of the parameter or field that carries them: login
 * names of the demo directory, its device numbers, event names, live ids. A schema alone says "a string"; these
 * make a fair share of inputs name a real user, device or call, so that they pass validation and the lookups and
 * reach the rules behind them.
 */
import fc from 'fast-check'
import { type LiveKind, liveValue } from './live-values.js'

/** Accounts of the demo directory (alice and dave users, admin an administrator), and one that is not. */
export const LOGIN_NAMES = ['alice', 'bob', 'carol', 'dave', 'lea', 'admin', 'operator', 'nobody']

const DEVICE_IDS = ['1001', '1002', '1003', '1004', '1103', '1011', '9999']
const NUMBERS = ['1002', '1001', '1004', '0155660003', '0155660005', '+33155661002', '8000', '00']
const EVENT_NAMES = [
  'telephony',
  'OnCallCreated',
  'routingManagement',
  'eventSummary',
  'userManagement',
  'comlog',
  'messaging',
  'OnUserCreated',
  '*',
]
const SEARCH_FIELDS = ['lastName', 'firstName', 'id.phoneNumber', 'id.loginName', 'x']
const SEARCH_OPERATIONS = ['EQUAL_IGNORE_CASE', 'BEGIN_WITH', 'CONTAIN', 'END_WITH', 'AND', 'OR']

/** A directory search criterion, nested as deep as a client may send it, operands of any type included. */
const criterion = fc.letrec<{ criterion: unknown }>((tie) => ({
  criterion: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({
      field: fc.constantFrom(...SEARCH_FIELDS),
      operation: fc.constantFrom(...SEARCH_OPERATIONS),
      operand: fc.oneof(fc.constantFrom('a', 'Mar', '100', ''), fc.jsonValue()),
    }),
    fc.record({
      operation: fc.constantFrom('AND', 'OR'),
      operand: fc.array(tie('criterion'), { maxLength: 3 }),
    }),
  ),
})).criterion

const live = (kind: LiveKind) => liveValue(kind)
const logins = fc.constantFrom(...LOGIN_NAMES)

/** What a parameter or field of this name carries in the service's domain, by name. */
const BY_NAME: Readonly<Record<string, fc.Arbitrary<unknown>>> = {
  loginName: logins,
  mailboxId: logins,
  colleague: logins,
  id: logins,
  ids: fc.array(logins, { maxLength: 3 }),
  deviceId: fc.constantFrom(...DEVICE_IDS),
  legId: fc.constantFrom(...DEVICE_IDS),
  participantId: fc.constantFrom(...DEVICE_IDS),
  parkTo: fc.constantFrom(...DEVICE_IDS),
  callee: fc.constantFrom(...NUMBERS, 'bob'),
  transferTo: fc.constantFrom(...NUMBERS),
  redirectTo: fc.constantFrom(...NUMBERS),
  number: fc.constantFrom(...NUMBERS),
  otherPhoneNumber: fc.constantFrom(...NUMBERS),
  phoneNumber: fc.constantFrom(...NUMBERS, '+33 1 55 66 10 02', '0612345678'),
  companyPhone: fc.constantFrom(...NUMBERS),
  callRef: live('callRef'),
  heldCallRef: live('callRef'),
  otherCallRef: live('callRef'),
  enquiryCallRef: live('callRef'),
  subscriptionId: live('subscriptionId'),
  sessionId: live('sessionId'),
  recordId: live('recordId'),
  recordIds: fc.array(live('recordId'), { maxLength: 3 }),
  recordIdList: live('recordId'),
  voicemailId: live('voicemailId'),
  msgIds: live('voicemailId'),
  callbackId: live('callbackId'),
  file: logins.map((login) => `${login}.vcf`),
  mute: fc.constantFrom('true', 'false'),
  version: fc.constantFrom('1.0', '2.0'),
  names: fc.array(fc.constantFrom(...EVENT_NAMES), { minLength: 1, maxLength: 3 }),
  guiLanguage: fc.constantFrom('en', 'fr', 'xx'),
  tuiLanguage: fc.constantFrom('en', 'de', 'xx'),
  oldPassword: fc.constantFrom('demo-alice', 'demo-dave', 'wrong'),
  newPassword: fc.constantFrom('fuzz-Password-1', 'short', ''),
  password: fc.constantFrom('demo-alice', '0000', 'wrong'),
  webHookUrl: fc.constantFrom(
    'http://127.0.0.1:9/hook',
    'http://example.com/hook',
    'file:///etc/passwd',
    'http://user:pw@127.0.0.1/',
  ),
  applicationName: fc.constantFrom('fuzz', ''),
  action: fc.constantFrom('start', 'stop', 'pause', 'resume', 'START', 'record'),
  acknowledge: fc.constantFrom('true', 'false'),
  afterDate: fc.constantFrom('2026-01-01T00:00:00Z', '2025-12-31', 'yesterday'),
  beforeDate: fc.constantFrom('2026-01-02T00:00:00Z', '0'),
  apiRights: fc.constantFrom('TELEPHONY_BASIC', 'TELEPHONY_ADVANCED', 'MESSAGING'),
  types: fc.constantFrom('USER', 'ADMINISTRATOR'),
  resultPattern: fc.constantFrom('+C (A) xxxx', 'xxxx', 'Aa'),
  filter: criterion,
}

/** The domain values of a parameter or field named `name`, if the service gives that name a meaning. */
export function domainValue(name: string): fc.Arbitrary<unknown> | undefined {
  return BY_NAME[name]
}
