// Click to call, as a CRM would do it: alice's application places a call from her desk phone to bob, bob's
// application answers it when its event channel says it rings, alice's hangs up. Both print the telephony
// events they receive. Run it against a running service (`npm start`) with `npm run example`; README.md.
import { join } from 'node:path'
import { ExampleError, Session, trustingAgent } from './openness-client.mjs'

/** The configuration, from the environment; the defaults are those of `npm start`. */
function readConfig(env) {
  const dataDir = env.DATA_DIR || './data'
  const origin =
    env.OPENNESS_URL || `https://${env.OPENNESS_HOST || '127.0.0.1'}:${env.HTTPS_PORT || '8443'}`
  let url
  try {
    url = new URL(origin)
  } catch {
    throw new ExampleError(`OPENNESS_URL=${origin}: not a URL (e.g. https://127.0.0.1:8443)`)
  }
  if (url.protocol !== 'https:')
    throw new ExampleError(`OPENNESS_URL=${origin}: the example logs in over HTTPS (https://...)`)
  const timeoutSeconds = Number(env.EXAMPLE_TIMEOUT_SECONDS || 10)
  if (!(timeoutSeconds > 0))
    throw new ExampleError(
      `EXAMPLE_TIMEOUT_SECONDS=${env.EXAMPLE_TIMEOUT_SECONDS}: a number of seconds`,
    )
  const caller = env.CALLER || 'alice'
  const callee = env.CALLEE || 'bob'
  return {
    origin: url.origin,
    caFile: env.CA_FILE || join(dataDir, 'tls', 'dev-cert.pem'),
    timeoutMs: timeoutSeconds * 1000,
    caller: { login: caller, password: env.CALLER_PASSWORD || `demo-${caller}` },
    callee: { login: callee, password: env.CALLEE_PASSWORD || `demo-${callee}` },
  }
}

const width = 7
/** Prints one line, prefixed with whose application speaks. */
function say(who, text) {
  process.stdout.write(`${`[${who}]`.padEnd(width)} ${text}\n`)
}

/** A line for an event: its name, then what matters of it. */
function describe(event) {
  const legs = (list) =>
    (list ?? []).map((leg) => `${leg.deviceId} ${leg.state}`).join(', ') || undefined
  const parts = [event.eventName.padEnd(20)]
  if (event.callRef !== undefined) parts.push(`call ${event.callRef}`)
  if (event.callData?.state) parts.push(event.callData.state)
  const legList = legs(event.legs ?? event.modifiedLegs)
  if (legList) parts.push(`(legs: ${legList})`)
  if (event.cause) parts.push(`cause ${event.cause}`)
  if (event.state && typeof event.state === 'string') parts.push(event.state)
  return parts.join(' ')
}

/** The call's first OnCallModified that shows it answered (ACTIVE). */
const active = (callRef) => (event) =>
  event.eventName === 'OnCallModified' &&
  event.callRef === callRef &&
  event.callData?.state === 'ACTIVE'

async function run(config, opened) {
  const agent = trustingAgent(config.caFile)
  say('example', `click to call on ${config.origin}, trusting ${config.caFile}`)
  const onKeepalive = (session, error) =>
    say(session.login, error ? `keepalive failed: ${error.message}` : 'session kept alive')
  const options = { origin: config.origin, agent, caFile: config.caFile, onKeepalive }

  const alice = await Session.open({ ...options, ...config.caller })
  opened.push(alice)
  const bob = await Session.open({ ...options, ...config.callee })
  opened.push(bob)
  for (const session of [alice, bob])
    say(
      session.login,
      `session open: timeToLive ${session.info.timeToLive} s, keepalive every ${session.keepaliveSeconds} s`,
    )

  const aliceEvents = await alice.subscribe(['telephony'], (event) =>
    say(alice.login, `event ${describe(event)}`),
  )
  const bobEvents = await bob.subscribe(['telephony'], (event) =>
    say(bob.login, `event ${describe(event)}`),
  )
  for (const [session, channel] of [
    [alice, aliceEvents],
    [bob, bobEvents],
  ])
    say(session.login, `subscribed to telephony, channel ${channel.pollingUrl}`)

  // Where from and where to: alice's desk phone, bob's company number, read from the users API.
  const caller = (await alice.request('GET', `/users/${alice.login}`)).body
  const desk = caller.devices?.find((device) => device.type === 'DESKPHONE') ?? caller.devices?.[0]
  if (!desk) throw new ExampleError(`${alice.login} has no device to call from`)
  const { companyPhone } = (await bob.request('GET', `/users/${bob.login}`)).body
  if (!companyPhone) throw new ExampleError(`${bob.login} has no company phone number to call`)

  say(alice.login, `calls ${bob.login} (${companyPhone}) from her ${desk.type} ${desk.id}`)
  const made = await alice.request(
    'POST',
    '/telephony/calls',
    { deviceId: desk.id, callee: companyPhone, autoAnswer: true },
    201,
  )
  const callRef = String(made.headers.location ?? '')
    .split('/')
    .pop()
  if (!callRef) throw new ExampleError('make call: no Location in the answer')
  opened.call = { session: alice, callRef }
  say(alice.login, `call ${callRef} placed`)

  // bob's application learns of the call from its channel, and answers on the device that rings.
  const ringing = await bobEvents.next(
    `OnCallCreated on ${bob.login}'s channel`,
    (event) => event.eventName === 'OnCallCreated',
    config.timeoutMs,
  )
  const bobCall = ringing.callRef
  const device = ringing.legs?.[0]?.deviceId ?? companyPhone
  say(bob.login, `answers call ${bobCall} on ${device}`)
  await bob.request('POST', `/telephony/calls/${bobCall}/answer`, { deviceId: device }, 204)
  await bobEvents.next(
    `the answered call on ${bob.login}'s channel`,
    active(bobCall),
    config.timeoutMs,
  )
  await aliceEvents.next(
    `the answered call on ${alice.login}'s channel`,
    active(callRef),
    config.timeoutMs,
  )

  say(alice.login, `hangs up call ${callRef}`)
  await alice.request('DELETE', `/telephony/calls/${callRef}`, undefined, 204)
  opened.call = undefined
  const removed = (ref) => (event) => event.eventName === 'OnCallRemoved' && event.callRef === ref
  await aliceEvents.next(
    `OnCallRemoved on ${alice.login}'s channel`,
    removed(callRef),
    config.timeoutMs,
  )
  await bobEvents.next(
    `OnCallRemoved on ${bob.login}'s channel`,
    removed(bobCall),
    config.timeoutMs,
  )
  // The users' states come back to FREE right after the call's end.
  const free = (event) => event.eventName === 'OnUserStateModified' && event.state === 'FREE'
  await aliceEvents.next(`${alice.login} FREE again`, free, config.timeoutMs)
  await bobEvents.next(`${bob.login} FREE again`, free, config.timeoutMs)
}

/** Ends what a run left: the call it placed, the sessions it opened (each failure only reported). */
async function cleanUp(opened) {
  if (opened.call) {
    const { session, callRef } = opened.call
    await session.request('DELETE', `/telephony/calls/${callRef}`, undefined, 204).catch(() => {})
  }
  let failed = false
  for (const session of opened.splice(0).reverse()) {
    try {
      await session.close()
      say(session.login, 'session closed')
    } catch (error) {
      failed = true
      say(session.login, `the session did not close: ${error.message}`)
    }
  }
  return !failed
}

const opened = []
try {
  await run(readConfig(process.env), opened)
  const closed = await cleanUp(opened)
  say('example', closed ? 'done' : 'done, but a session did not close')
  process.exit(closed ? 0 : 1)
} catch (error) {
  await cleanUp(opened).catch(() => {})
  const message = error instanceof ExampleError ? error.message : (error?.stack ?? String(error))
  process.stderr.write(`click-to-call failed: ${message}\n`)
  process.exit(1)
}
