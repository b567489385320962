/**
 * The call-control API under /api/rest/1.0/telephony (issue 5): every row of the specification's
 * "Call control" table. docs/telephony-api.md holds the decisions where the specification is silent;
 * docs/numbering.md those of the numbering rows.
 */
import type { FastifyPluginAsync } from 'fastify'
import { basicCallRoutes } from './basic-call.js'
import { callOperationRoutes } from './call-operations.js'
import { callbackRoutes } from './callbacks.js'
import { callRoutes } from './calls.js'
import { deskSharingRoutes } from './desk-sharing.js'
import { deviceRoutes } from './devices.js'
import { huntingGroupRoutes } from './hunting-groups.js'
import { makeCallRoutes } from './make-call.js'
import { miniMessageRoutes } from './mini-messages.js'
import { numberingRoutes } from './numbering.js'
import { pilotTelephonyRoutes } from './pilots.js'
import { stateRoutes } from './state.js'

export const telephonyRoutes: FastifyPluginAsync = async (app) => {
  for (const service of ['Telephony', 'Devices', 'State']) app.platform.services.provide(service)
  await app.register(makeCallRoutes)
  await app.register(basicCallRoutes)
  await app.register(callRoutes)
  await app.register(callOperationRoutes)
  await app.register(deviceRoutes)
  await app.register(callbackRoutes)
  await app.register(huntingGroupRoutes)
  await app.register(pilotTelephonyRoutes)
  await app.register(deskSharingRoutes)
  await app.register(stateRoutes)
  await app.register(miniMessageRoutes)
  await app.register(numberingRoutes, { prefix: '/numbering' })
}
