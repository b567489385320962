/**
 * The user's calls: GET /telephony/calls, GET and DELETE /telephony/calls/{callRef}, and the call's legs
 * and participants (specification, "Call control"; list wrappers of wire facts 5.3). Every call is shown
 * as the acting user sees it (design section 4).
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import {
  AddParticipantRequest,
  Call,
  Calls,
  Leg,
  Legs,
  MoveLegRequest,
  Participant,
  Participants,
} from '@openness/wire'
import { errorResponses } from '../../error-responses.js'
import { ADVANCED, ownCallCaughtUp, ownDevice, telephonyActor } from '../../telephony-access.js'
import { CallRefParams, LoginQuery, noContent, runCommand, tags } from './route-support.js'

const advanced = { licenses: ADVANCED }
const LegParams = Type.Intersect([CallRefParams, Type.Object({ legId: Type.String() })])
const ParticipantParams = Type.Intersect([
  CallRefParams,
  Type.Object({ participantId: Type.String() }),
])

export const callRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/calls',
    {
      schema: {
        operationId: 'getCalls',
        summary: "The user's calls",
        tags,
        querystring: LoginQuery,
        response: { 200: Calls, ...errorResponses(401) },
      },
    },
    async (request) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      return { calls: actor.queries.calls(actor.loginName) }
    },
  )

  app.get(
    '/calls/:callRef',
    {
      schema: {
        operationId: 'getCall',
        summary: 'One call of the user',
        tags,
        params: CallRefParams,
        querystring: LoginQuery,
        response: { 200: Call, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      const callRef = await ownCallCaughtUp(actor, request.params.callRef)
      return actor.queries.call(actor.loginName, callRef)
    },
  )

  app.delete(
    '/calls/:callRef',
    {
      schema: {
        operationId: 'releaseCall',
        summary: 'Release the call: every party is released',
        tags,
        params: CallRefParams,
        querystring: LoginQuery,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      const callRef = await ownCallCaughtUp(actor, request.params.callRef)
      return runCommand(reply, { type: 'release', loginName: actor.loginName, callRef })
    },
  )

  app.get(
    '/calls/:callRef/deviceLegs',
    {
      schema: {
        operationId: 'getLegs',
        summary: "The user's legs in the call",
        tags,
        params: CallRefParams,
        querystring: LoginQuery,
        response: { 200: Legs, ...errorResponses(404) },
      },
    },
    async (request) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      const callRef = await ownCallCaughtUp(actor, request.params.callRef)
      return { legs: actor.queries.legs(actor.loginName, callRef) }
    },
  )

  app.get(
    '/calls/:callRef/deviceLegs/:legId',
    {
      schema: {
        operationId: 'getLeg',
        summary: 'One leg of the user in the call; legId is the device number of the leg',
        tags,
        params: LegParams,
        querystring: LoginQuery,
        response: { 200: Leg, ...errorResponses(404) },
      },
    },
    async (request) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      const callRef = await ownCallCaughtUp(actor, request.params.callRef)
      return actor.queries.leg(actor.loginName, callRef, request.params.legId)
    },
  )

  app.post(
    '/calls/:callRef/deviceLegs/:legId',
    {
      schema: {
        operationId: 'switchDevice',
        summary: 'Move the call from this leg to another device of the user',
        tags,
        params: LegParams,
        querystring: LoginQuery,
        body: MoveLegRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      const callRef = await ownCallCaughtUp(actor, request.params.callRef)
      return runCommand(reply, {
        type: 'moveLeg',
        loginName: actor.loginName,
        callRef,
        legId: request.params.legId,
        deviceId: ownDevice(actor, request.body.deviceId),
      })
    },
  )

  app.get(
    '/calls/:callRef/participants',
    {
      schema: {
        operationId: 'getParticipants',
        summary: 'The other parties of the call',
        tags,
        params: CallRefParams,
        querystring: LoginQuery,
        response: { 200: Participants, ...errorResponses(404) },
      },
    },
    async (request) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      const callRef = await ownCallCaughtUp(actor, request.params.callRef)
      return { participants: actor.queries.participants(actor.loginName, callRef) }
    },
  )

  app.post(
    '/calls/:callRef/participants',
    {
      schema: {
        operationId: 'addParticipant',
        summary: 'Add a party to the call (MULTIMEDIA users only)',
        tags,
        params: CallRefParams,
        querystring: LoginQuery,
        body: AddParticipantRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, {
        ...advanced,
        userType: 'MULTIMEDIA',
      })
      const callRef = await ownCallCaughtUp(actor, request.params.callRef)
      return runCommand(reply, {
        type: 'addParticipant',
        loginName: actor.loginName,
        callRef,
        callee: request.body.participantId,
      })
    },
  )

  app.get(
    '/calls/:callRef/participants/:participantId',
    {
      schema: {
        operationId: 'getParticipant',
        summary: 'One other party of the call',
        tags,
        params: ParticipantParams,
        querystring: LoginQuery,
        response: { 200: Participant, ...errorResponses(404) },
      },
    },
    async (request) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      const callRef = await ownCallCaughtUp(actor, request.params.callRef)
      return actor.queries.participant(actor.loginName, callRef, request.params.participantId)
    },
  )

  app.delete(
    '/calls/:callRef/participants/:participantId',
    {
      schema: {
        operationId: 'dropParticipant',
        summary: 'Drop one party from the call',
        tags,
        params: ParticipantParams,
        querystring: LoginQuery,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const actor = telephonyActor(request, request.query.loginName, advanced)
      const callRef = await ownCallCaughtUp(actor, request.params.callRef)
      return runCommand(reply, {
        type: 'dropParticipant',
        loginName: actor.loginName,
        callRef,
        participantId: request.params.participantId,
      })
    },
  )
}
