/**
 * The actions of a scenario's steps (docs/scenarios.md, "The script"): the control plane's, named as the command
 * line names them (`calls make`, `devices answer`, `outside busy`...), and those of a user's application
 * through the public API (`as: alice`, `do: makeCall`, with the body the API takes). Each is the request it
 * makes: a step does exactly what the route does, with the same checks and answers.
 */
import { type TObject, type TSchema, Type } from 'typebox'

/** A request of a step: to the control plane (under /control/v1) or to the API (under /api/rest/1.0). */
export interface ActionRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  body?: unknown
}

/** What a step does with its `call`: names the call it places, acts on a named call, or neither. */
export type CallUse = 'creates' | 'requires' | 'optional' | 'none'

export interface ActionSpec {
  /** The control plane's (the operator), or a user's application's (a step with `as`). */
  kind: 'control' | 'app'
  /** The step's own fields besides the common ones (STEP_FIELDS), closed. */
  args: TObject
  call: CallUse
  /** The request, given the step's arguments and the callRef of its `call` when it names one. */
  request(args: Readonly<Record<string, unknown>>, callRef: string | undefined): ActionRequest
}

const closed = { additionalProperties: false } as const
const text = (description: string) => Type.String({ minLength: 1, description })
const segment = (value: unknown) => encodeURIComponent(String(value))
const Device = text('a device id of the platform')
const OutsideNumber = text('the outside number as the engine knows it')
const Seconds = Type.Number({ exclusiveMinimum: 0, maximum: 86_400 })
const Body = Type.Unknown({ description: 'the body the API takes' })
const AnyObject = Type.Object({}, { additionalProperties: true })

function control(
  args: Record<string, TSchema>,
  call: CallUse,
  request: ActionSpec['request'],
): ActionSpec {
  return { kind: 'control', args: Type.Object(args, closed), call, request }
}

const deviceAction = (action: string) =>
  control({ device: Device }, 'none', (args) => ({
    method: 'POST',
    path: `/devices/${segment(args['device'])}/${action}`,
  }))

const outsideAction = (action: string, body?: unknown) =>
  control({ number: OutsideNumber }, 'none', (args) => ({
    method: 'POST',
    path: `/outside/${segment(args['number'])}/${action}`,
    ...(body !== undefined && { body }),
  }))

/** The control plane's actions, named as the command line names its commands. */
const CONTROL_ACTIONS: Readonly<Record<string, ActionSpec>> = {
  'calls make': control(
    { from: text('an extension or an outside number'), to: text('what is dialed') },
    'creates',
    (args) => ({ method: 'POST', path: '/calls', body: { from: args['from'], to: args['to'] } }),
  ),
  'devices answer': deviceAction('answer'),
  'devices offhook': deviceAction('offhook'),
  'devices hangup': deviceAction('hangup'),
  'devices dtmf': control(
    { device: Device, digits: text('0-9, *, #, A-D') },
    'optional',
    (args, callRef) => ({
      method: 'POST',
      path: `/devices/${segment(args['device'])}/dtmf`,
      body: { digits: args['digits'], ...(callRef !== undefined && { callRef }) },
    }),
  ),
  'devices auto-answer': control(
    { device: Device, autoAnswer: Type.Boolean() },
    'none',
    (args) => ({
      method: 'PUT',
      path: `/devices/${segment(args['device'])}`,
      body: { autoAnswer: args['autoAnswer'] },
    }),
  ),
  'devices service': control(
    { device: Device, state: Type.Enum(['IN_SERVICE', 'OUT_OF_SERVICE']) },
    'none',
    (args) => ({
      method: 'PUT',
      path: `/devices/${segment(args['device'])}`,
      body: { state: args['state'] },
    }),
  ),
  'outside answer': outsideAction('answer'),
  'outside reject': control(
    {
      number: OutsideNumber,
      cause: Type.Optional(Type.Enum(['BUSY', 'DESTINATION_NOT_OBTAINABLE'])),
    },
    'none',
    (args) => ({
      method: 'POST',
      path: `/outside/${segment(args['number'])}/reject`,
      body: args['cause'] === undefined ? {} : { cause: args['cause'] },
    }),
  ),
  'outside busy': outsideAction('reject', { cause: 'BUSY' }),
  'outside hangup': outsideAction('hangup'),
  'routing set': control({ user: text('a login name'), routing: AnyObject }, 'none', (args) => ({
    method: 'PUT',
    path: `/users/${segment(args['user'])}/routing`,
    body: args['routing'],
  })),
  'users update': control({ user: text('a login name'), changes: AnyObject }, 'none', (args) => ({
    method: 'PATCH',
    path: `/users/${segment(args['user'])}`,
    body: args['changes'],
  })),
  'faults not-ready': control({ seconds: Seconds }, 'none', (args) => ({
    method: 'POST',
    path: '/faults/not-ready',
    body: { seconds: args['seconds'] },
  })),
  'faults switch-over': control({ seconds: Type.Optional(Seconds) }, 'none', (args) => ({
    method: 'POST',
    path: '/faults/switch-over',
    body: args['seconds'] === undefined ? {} : { seconds: args['seconds'] },
  })),
  'faults clear': control({}, 'none', () => ({ method: 'DELETE', path: '/faults' })),
}

/**
 * An operation of the API, by its path under /api/rest/1.0: `{call}`, `{device}` and `{participant}` are the
 * step's `call` (its callRef), `device` and `participant`.
 */
function app(method: ActionRequest['method'], path: string, call: CallUse = 'none'): ActionSpec {
  const args: Record<string, TSchema> = { body: Type.Optional(Body) }
  if (path.includes('{device}')) args['device'] = Device
  if (path.includes('{participant}')) args['participant'] = text('a participant id of the call')
  const uses = path.includes('{call}') ? 'requires' : call
  return {
    kind: 'app',
    args: Type.Object(args, closed),
    call: uses,
    request: (given, callRef) => ({
      method,
      path: path
        .replace('{call}', segment(callRef))
        .replace('{device}', segment(given['device']))
        .replace('{participant}', segment(given['participant'])),
      ...(given['body'] !== undefined && { body: given['body'] }),
    }),
  }
}

const onCall = (operation: string) => app('POST', `/telephony/calls/{call}/${operation}`)

/** The operations of a user's application, named after the SDKs' verbs. */
const APP_ACTIONS: Readonly<Record<string, ActionSpec>> = {
  makeCall: app('POST', '/telephony/calls', 'creates'),
  basicCall: app('POST', '/telephony/basicCall', 'creates'),
  basicAnswer: app('POST', '/telephony/basicCall/answer'),
  basicDropMe: app('POST', '/telephony/basicCall/dropme'),
  answer: onCall('answer'),
  hold: onCall('hold'),
  retrieve: onCall('retrieve'),
  alternate: onCall('alternate'),
  dropme: onCall('dropme'),
  release: app('DELETE', '/telephony/calls/{call}'),
  transfer: onCall('transfer'),
  merge: onCall('merge'),
  blindTransfer: onCall('blindtransfer'),
  redirect: onCall('redirect'),
  overflowToVoiceMail: onCall('overflowToVoiceMail'),
  park: onCall('park'),
  callback: onCall('callback'),
  sendDtmf: onCall('sendDtmf'),
  attachData: onCall('attachdata'),
  addParticipant: app('POST', '/telephony/calls/{call}/participants'),
  dropParticipant: app('DELETE', '/telephony/calls/{call}/participants/{participant}'),
  pickup: app('POST', '/telephony/devices/{device}/pickup'),
  unpark: app('POST', '/telephony/devices/{device}/unpark'),
  request: {
    kind: 'app',
    args: Type.Object(
      {
        method: Type.Enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
        path: Type.String({
          pattern: '^/',
          description: 'under /api/rest/1.0; {name} is the callRef of the call so named',
        }),
        body: Type.Optional(Body),
      },
      closed,
    ),
    call: 'optional',
    request: (given) => ({
      method: given['method'] as ActionRequest['method'],
      path: String(given['path']),
      ...(given['body'] !== undefined && { body: given['body'] }),
    }),
  },
}

/** The action a step's `do` names, or undefined. */
export function actionOf(name: string): ActionSpec | undefined {
  return Object.hasOwn(CONTROL_ACTIONS, name)
    ? CONTROL_ACTIONS[name]
    : Object.hasOwn(APP_ACTIONS, name)
      ? APP_ACTIONS[name]
      : undefined
}

/** Every action's name: the control plane's, then the applications'. */
export const ACTION_NAMES: readonly string[] = [
  ...Object.keys(CONTROL_ACTIONS),
  ...Object.keys(APP_ACTIONS),
]
