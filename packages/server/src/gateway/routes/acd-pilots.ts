/**
 * The pilots of the contact center (docs/contact-center.md, "Pilots"; client census 2, 5c): their monitoring
 * (service `AcdPilotMonitoring`, `/acd/pilotmonitoring`: the pilot's events flow while a login monitors it) and
 * their management (service `AcdManagement`, `/acd/management`: pilots with their condition and rules, the
 * calendars and their transitions, open and close). For administrators and supervisors. Adding a transition is
 * `POST …/{day}` for the Node SDK and `POST …/{day}/transitions` for the Java SDK; both work.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import {
  CalendarDate,
  DayOfWeek,
  ExceptionCalendar,
  NormalCalendar,
  Pilot,
  PilotCalendar,
  Pilots,
  PilotTransferQuery,
  PilotTransitionRequest,
  TransitionIndex,
} from '@openness/wire'
import type { FastifyRequest } from 'fastify'
import { PlatformError } from '../../platform/platform-error.js'
import { clientDialectOf } from '../../platform/subscriptions/client-dialect.js'
import { pilotCalendar, pilotInfo, pilotView } from '../../platform/telephony/acd-views.js'
import type { AcdCommand } from '../../platform/telephony/telephony-state.js'
import { acdServiceUser, contactCenterOf, listsContactCenter } from '../acd-access.js'
import { errorResponses } from '../error-responses.js'
import { transferQueryOf } from './telephony/pilots.js'
import { noContent, runCommand } from './telephony/route-support.js'

const monitoringTags = ['acd pilot monitoring']
const tags = ['acd management']

const PilotParams = Type.Object({ pilotNumber: Type.String({ description: 'the pilot number' }) })
const NodeParams = Type.Object({
  nodeId: Type.String({ description: "the PBX node's id (the directory file's company.nodeId)" }),
})
const NodePilotParams = Type.Object({ ...NodeParams.properties, ...PilotParams.properties })
const DayParams = Type.Object({ ...NodePilotParams.properties, day: DayOfWeek })
const DateParams = Type.Object({ ...NodePilotParams.properties, date: CalendarDate })
const DayIndexParams = Type.Object({ ...DayParams.properties, index: TransitionIndex })
const DateIndexParams = Type.Object({ ...DateParams.properties, index: TransitionIndex })

/** NOT_FOUND for a node that is not the platform's. */
function requireNode(request: FastifyRequest, nodeId: string): void {
  const own = request.server.platform.directory.settings.nodeId
  if (nodeId !== own)
    throw new PlatformError('NOT_FOUND', `No node '${nodeId}' (this platform is node ${own})`)
}

/** The path parameters of a calendar day's route. */
interface DayPath {
  nodeId: string
  pilotNumber: string
  day?: string
  date?: string
  index?: number
}

/**
 * A change of a calendar day as the engine takes it, from the route's path (after the caller's rights and the
 * node are checked): the pilot, the week day or exception date, and the 1-based position when the path has one.
 */
function calendarChange(
  request: FastifyRequest,
  change: 'add' | 'set' | 'delete',
  transition?: PilotTransitionRequest,
): Extract<AcdCommand, { type: 'acdCalendarChange' }> {
  acdServiceUser(request)
  const path = request.params as DayPath
  requireNode(request, path.nodeId)
  return {
    type: 'acdCalendarChange',
    pilot: path.pilotNumber,
    day: path.day ?? path.date ?? '',
    change,
    ...(path.index !== undefined && { index: path.index }),
    ...(transition !== undefined && { transition: { ...transition } }),
  }
}

/** Whether the request comes from the Java SDK, which reads a pilot's rules as `{ruleList}`. */
function javaRules(request: FastifyRequest): boolean {
  return clientDialectOf(request.headers['user-agent']) === 'java'
}

export const acdPilotMonitoringRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.platform.services.provide(
    'AcdPilotMonitoring',
    listsContactCenter(() => app.platform.telephony.queries.acdState(), true),
  )
  for (const [method, start] of [
    ['post', true],
    ['delete', false],
  ] as const)
    app[method](
      '/:pilotNumber',
      {
        schema: {
          operationId: start ? 'startPilotMonitoring' : 'stopPilotMonitoring',
          summary: start
            ? 'Start monitoring the pilot: its events (package pilot) flow to the subscriptions that name it'
            : "Stop this login's monitoring of the pilot: its events stop once no login monitors it",
          tags: monitoringTags,
          params: PilotParams,
          response: { ...noContent, ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const loginName = acdServiceUser(request)
        return runCommand(reply, {
          type: 'acdMonitor',
          pilot: request.params.pilotNumber,
          loginName,
          start,
        })
      },
    )
}

export const acdManagementRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.platform.services.provide(
    'AcdManagement',
    listsContactCenter(() => app.platform.telephony.queries.acdState(), true),
  )

  app.get(
    '/:nodeId/pilots',
    {
      schema: {
        operationId: 'getPilots',
        summary: 'The pilots of the node, each with its condition, waiting time and rules',
        tags,
        params: NodeParams,
        response: { 200: Pilots, ...errorResponses(404) },
      },
    },
    async (request) => {
      acdServiceUser(request)
      requireNode(request, request.params.nodeId)
      const acd = contactCenterOf(request)
      return {
        pilotList: Object.keys(acd.definition.pilots)
          .sort()
          .map((number) => pilotView(acd, number, javaRules(request))),
      }
    },
  )

  app.get(
    '/:nodeId/pilots/:pilotNumber',
    {
      schema: {
        operationId: 'getPilot',
        summary: 'One pilot',
        tags,
        params: NodePilotParams,
        response: { 200: Pilot, ...errorResponses(404) },
      },
    },
    async (request) => {
      acdServiceUser(request)
      requireNode(request, request.params.nodeId)
      return pilotView(contactCenterOf(request), request.params.pilotNumber, javaRules(request))
    },
  )

  app.post(
    '/:nodeId/pilots/:pilotNumber',
    {
      schema: {
        operationId: 'queryPilot',
        summary:
          'One pilot as a call with this profile would find it (the Node SDK): its detailed state says whether the transfer is possible',
        tags,
        params: NodePilotParams,
        body: Type.Optional(PilotTransferQuery),
        response: { 200: Pilot, ...errorResponses(404) },
      },
    },
    async (request) => {
      acdServiceUser(request)
      requireNode(request, request.params.nodeId)
      const acd = contactCenterOf(request)
      const number = request.params.pilotNumber
      const view = pilotView(acd, number, javaRules(request))
      const info = pilotInfo(acd, number, transferQueryOf(request.body))
      return {
        ...view,
        detailedState: info.pilotTransferInfo?.pilotStatus ?? view.detailedState,
      }
    },
  )

  app.get(
    '/:nodeId/pilots/:pilotNumber/calendar',
    {
      schema: {
        operationId: 'getPilotCalendar',
        summary: "The pilot's normal and exception calendars",
        tags,
        params: NodePilotParams,
        response: { 200: PilotCalendar, ...errorResponses(404) },
      },
    },
    async (request) => {
      acdServiceUser(request)
      requireNode(request, request.params.nodeId)
      return pilotCalendar(contactCenterOf(request), request.params.pilotNumber)
    },
  )

  for (const [kind, schema] of [
    ['normal', NormalCalendar],
    ['exception', ExceptionCalendar],
  ] as const)
    app.get(
      `/:nodeId/pilots/:pilotNumber/calendar/${kind}`,
      {
        schema: {
          operationId: kind === 'normal' ? 'getPilotNormalCalendar' : 'getPilotExceptionCalendar',
          summary:
            kind === 'normal'
              ? "The pilot's week: each day's transitions"
              : "The pilot's exception days and their transitions",
          tags,
          params: NodePilotParams,
          response: { 200: schema, ...errorResponses(404) },
        },
      },
      async (request) => {
        acdServiceUser(request)
        requireNode(request, request.params.nodeId)
        const calendar = pilotCalendar(contactCenterOf(request), request.params.pilotNumber)
        return kind === 'normal' ? calendar.normalDays : calendar.exceptionDays
      },
    )

  // Add a transition: the Node SDK posts to the day, the Java SDK to the day's `/transitions`.
  for (const [kind, suffix] of [
    ['normal', ''],
    ['normal', '/transitions'],
    ['exception', ''],
    ['exception', '/transitions'],
  ] as const) {
    const path =
      kind === 'normal'
        ? `/:nodeId/pilots/:pilotNumber/calendar/normal/:day${suffix}`
        : `/:nodeId/pilots/:pilotNumber/calendar/exception/:date${suffix}`
    app.post(
      path,
      {
        schema: {
          operationId: `addPilot${kind === 'normal' ? 'Normal' : 'Exception'}Transition${suffix === '' ? '' : 'ToList'}`,
          summary: `Add a transition to a${kind === 'normal' ? ' day of the week' : 'n exception day'} (10 a day at most)`,
          tags,
          params: kind === 'normal' ? DayParams : DateParams,
          body: PilotTransitionRequest,
          response: { ...noContent, ...errorResponses(404) },
        },
      },
      async (request, reply) => runCommand(reply, calendarChange(request, 'add', request.body)),
    )
  }

  for (const kind of ['normal', 'exception'] as const) {
    const path =
      kind === 'normal'
        ? '/:nodeId/pilots/:pilotNumber/calendar/normal/:day/transitions/:index'
        : '/:nodeId/pilots/:pilotNumber/calendar/exception/:date/transitions/:index'
    const params = kind === 'normal' ? DayIndexParams : DateIndexParams
    const name = kind === 'normal' ? 'Normal' : 'Exception'
    app.put(
      path,
      {
        schema: {
          operationId: `setPilot${name}Transition`,
          summary: 'Replace the transition at this 1-based position of the day',
          tags,
          params,
          body: PilotTransitionRequest,
          response: { ...noContent, ...errorResponses(404) },
        },
      },
      async (request, reply) => runCommand(reply, calendarChange(request, 'set', request.body)),
    )
    app.delete(
      path,
      {
        schema: {
          operationId: `deletePilot${name}Transition`,
          summary: 'Remove the transition at this 1-based position of the day',
          tags,
          params,
          response: { ...noContent, ...errorResponses(404) },
        },
      },
      async (request, reply) => runCommand(reply, calendarChange(request, 'delete')),
    )
  }

  for (const [path, open] of [
    ['open', true],
    ['close', false],
  ] as const)
    app.post(
      `/:nodeId/pilots/:pilotNumber/${path}`,
      {
        schema: {
          operationId: open ? 'openPilot' : 'closePilot',
          summary: open
            ? "Open the pilot (its rule in force kept) until its calendar's next transition"
            : "Close the pilot: its calls are dissuaded until it is opened or its calendar's next transition",
          tags,
          params: NodePilotParams,
          response: { ...noContent, ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        acdServiceUser(request)
        requireNode(request, request.params.nodeId)
        return runCommand(reply, { type: 'acdPilotMode', pilot: request.params.pilotNumber, open })
      },
    )
}
