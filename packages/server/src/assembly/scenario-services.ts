/**
 * The scenario services (control/scenarios/scenario-services.ts) of a started platform: main.ts and the tests
 * build them the same way, from the running platform and the gateway's Fastify application.
 */
import type { FastifyInstance } from 'fastify'
import { injector, type ScenarioServices } from '../control/scenarios/scenario-services.js'
import type { RunningPlatform } from './service.js'

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
