/**
 * What the control plane's scenario routes need of the running service besides what it already has (its call
 * engine and its clock): the public API in the process, credentials for users, the event router, and how to
 * wait until the platform is quiet. main.ts and the tests build them the same way, from the started platform
 * and the gateway's Fastify application.
 */
import type { FastifyInstance } from 'fastify'
import type { RunningPlatform } from '../../assembly/service.js'
import type { Inject, ScenarioDependencies } from './scenario-dependencies.js'

/** The parts of the runner's dependencies that the control plane does not hold itself. */
export type ScenarioServices = Omit<ScenarioDependencies, 'control' | 'telephony' | 'clock'>

/** Requests to a Fastify application in the process, with `headers` on each. */
export function injector(
  app: Pick<FastifyInstance, 'inject'>,
  headers: Record<string, string> = {},
): Inject {
  return async ({ method, url, headers: own, body }) => {
    const response = await app.inject({
      method,
      url,
      headers: {
        ...headers,
        ...own,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { payload: JSON.stringify(body) }),
    })
    let parsed: unknown
    try {
      parsed = response.body === '' ? undefined : JSON.parse(response.body)
    } catch {
      parsed = undefined
    }
    return { status: response.statusCode, headers: response.headers, body: parsed }
  }
}

/** The mailbox pages `clear` goes through: the most a listing answers. */
const PAGE = 1000

/**
 * The scenario services of a started platform, whose public API is `api` (the gateway's application); `reset`
 * when the service can return to the directory file's state.
 */
export function scenarioServices(
  running: Pick<RunningPlatform, 'platform' | 'telephony' | 'voicemailDeposits' | 'events'>,
  api: Pick<FastifyInstance, 'inject'>,
  reset?: () => Promise<void>,
): ScenarioServices {
  const { platform, telephony, voicemailDeposits } = running
  const { eventSummary, voicemail, sessions } = platform
  return {
    api: injector(api),
    issueToken: (loginName) => sessions.issueToken(loginName),
    cookieName: platform.cookies.names[0] ?? 'SvcUserId',
    events: running.events,
    // Each part may start work for the others (a record refreshes a summary, a message ends a call): twice.
    settle: async () => {
      for (let round = 0; round < 2; round++) {
        await telephony.idle()
        await voicemailDeposits.idle()
        await eventSummary.idle()
        await new Promise((resolve) => setImmediate(resolve))
      }
    },
    eventSummary: (loginName) => eventSummary.summary(loginName),
    clearMailbox: async (loginName) => {
      if (!voicemail.hosts(loginName)) return
      for (;;) {
        const page = await voicemail.list(loginName, loginName, {
          newOnly: false,
          offset: 0,
          limit: PAGE,
        })
        if (page.length === 0) return
        await voicemail.delete(
          loginName,
          loginName,
          page.map((message) => message.voicemailId),
        )
      }
    },
    ...(reset && { reset }),
  }
}
