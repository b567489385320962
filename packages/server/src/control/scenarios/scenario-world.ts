/**
 * Arranges a scenario's world before its script (docs/scenarios.md, "The world"), through the control plane's
 * own routes, so that each part is checked as the operator's request would be: logs and mailboxes emptied,
 * users created or changed in the directory file's format, pickup groups, hunting groups, the contact center,
 * routing, and the devices' settings.
 * The rules of devices and outside parties that the engine has not (answer after N rings...) are the run's
 * (scenario-behaviours.ts); this only writes them in the timeline.
 */
import { formatDirectoryPath } from '../../platform/directory/directory-problem.js'
import { RING_MS } from './scenario-behaviours.js'
import type { InjectedAnswer, ScenarioDependencies } from './scenario-dependencies.js'
import type { World } from './scenario-document.js'

/** Where the world writes: the timeline, and the problems that stop the run before its script. */
export interface WorldLog {
  note(text: string): void
  fail(problem: string): void
}

const segment = encodeURIComponent

/** Arranges `world`; each refusal is a problem named by its path in the file. */
export async function arrangeWorld(
  world: World,
  deps: ScenarioDependencies,
  log: WorldLog,
): Promise<void> {
  const control = async (
    path: (string | number)[],
    request: Parameters<ScenarioDependencies['control']>[0],
    done: string,
  ): Promise<InjectedAnswer | undefined> => {
    const answer = await deps.control(request)
    if (answer.status >= 300) {
      log.fail(`${formatDirectoryPath(path)}: ${helpOf(answer)}`)
      return undefined
    }
    log.note(done)
    return answer
  }

  for (const [index, user] of (world.clear ?? []).entries()) {
    const done = await control(
      ['world', 'clear', index],
      { method: 'DELETE', url: `/users/${segment(user)}/comlog` },
      `${user}'s communication log and mailbox emptied`,
    )
    if (done) await deps.clearMailbox(user)
  }
  for (const [index, user] of (world.users ?? ([] as Record<string, unknown>[])).entries()) {
    const path = ['world', 'users', index]
    const loginName = (user as Record<string, unknown>)['loginName']
    if (typeof loginName !== 'string' || loginName === '') {
      log.fail(`${formatDirectoryPath([...path, 'loginName'])}: is required, a login name`)
      continue
    }
    const url = `/users/${segment(loginName)}`
    const known = (await deps.control({ method: 'GET', url })).status === 200
    if (known) {
      const { loginName: _, ...changes } = user as Record<string, unknown>
      await control(path, { method: 'PATCH', url, body: changes }, `user ${loginName} changed`)
    } else
      await control(
        path,
        { method: 'POST', url: '/users', body: user },
        `user ${loginName} created`,
      )
  }
  for (const [name, members] of Object.entries(world.pickupGroups ?? {}))
    await control(
      ['world', 'pickupGroups', name],
      { method: 'PUT', url: `/pickupGroups/${segment(name)}`, body: { members } },
      `pickup group ${name}: ${members.join(', ')}`,
    )
  for (const [number, group] of Object.entries(world.huntingGroups ?? {}))
    await control(
      ['world', 'huntingGroups', number],
      { method: 'PUT', url: `/huntingGroups/${segment(number)}`, body: group },
      `hunting group ${number} set`,
    )
  if (world.contactCenter !== undefined)
    await control(
      ['world', 'contactCenter'],
      { method: 'PUT', url: '/contactCenter/definition', body: world.contactCenter },
      'contact center defined',
    )
  for (const [loginName, routing] of Object.entries(world.routing ?? {}))
    await control(
      ['world', 'routing', loginName],
      { method: 'PUT', url: `/users/${segment(loginName)}/routing`, body: routing },
      `routing of ${loginName} set`,
    )
  for (const [deviceId, device] of Object.entries(world.devices ?? {})) {
    // A device listed answers only as the file says: the engine's auto answer is off unless asked for.
    const body = {
      autoAnswer: device.autoAnswer === true,
      ...(device.state && { state: device.state }),
    }
    const how =
      device.answerAfterRings !== undefined
        ? `answers after ${device.answerAfterRings} ring(s) of ${RING_MS / 1000} s`
        : device.answerAfterSeconds !== undefined
          ? `answers after ${device.answerAfterSeconds} s`
          : device.autoAnswer === true
            ? 'answers by itself (auto answer)'
            : 'does not answer by itself'
    await control(
      ['world', 'devices', deviceId],
      { method: 'PUT', url: `/devices/${segment(deviceId)}`, body },
      `device ${deviceId} ${how}${device.state === 'OUT_OF_SERVICE' ? ', out of service' : ''}`,
    )
  }
  for (const rule of world.outside ?? []) log.note(`outside ${describeRule(rule)}`)
}

function describeRule(rule: NonNullable<World['outside']>[number]): string {
  const who = rule.number ?? `${rule.prefix}...`
  const after = rule.afterSeconds ? ` after ${rule.afterSeconds} s` : ''
  const called = {
    ANSWER: `answers${after} when called`,
    REJECT: `rejects the call${after} when called`,
    BUSY: 'is busy when called',
    NO_ANSWER: 'does not answer when called',
  }
  const parts = [
    ...(rule.behaviour === undefined ? [] : [called[rule.behaviour]]),
    ...(rule.hangUpAfterSeconds === undefined
      ? []
      : [`hangs up ${rule.hangUpAfterSeconds} s after its call is connected`]),
  ]
  return `${who} ${parts.join(', ') || 'has no rule'}`
}

/** The helpMessage of a refusal, or its status. */
export function helpOf(answer: InjectedAnswer): string {
  const body = answer.body as { helpMessage?: unknown; type?: unknown } | undefined
  return typeof body?.helpMessage === 'string'
    ? `${String(body.type)}: ${body.helpMessage}`
    : `HTTP ${answer.status}`
}
