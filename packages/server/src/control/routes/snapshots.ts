/**
 * Reset, snapshots and restore of the whole platform (docs/sandbox.md): `POST /reset` puts back the directory
 * file's state; `PUT /snapshots/{name}` keeps the state now under a name, `POST /snapshots/{name}/restore`
 * puts it back. Both end every session; a test suite runs them between its tests.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import type { SnapshotInfo } from '../../platform/sandbox/platform-image-store.js'
import type { PlatformStates } from '../../platform/sandbox/platform-states.js'
import { isoTime } from './route-support.js'

const NameParams = Type.Object({ name: Type.String() })
const Snapshot = Type.Object(
  {
    name: Type.String(),
    takenAt: Type.String({
      format: 'date-time',
      description: "when it was taken, on the service's clock",
    }),
    bytes: Type.Integer({ description: 'its size as stored' }),
  },
  { title: 'ControlSnapshot' },
)
const SnapshotList = Type.Object(
  { snapshots: Type.Array(Snapshot, { description: 'by name' }) },
  { title: 'ControlSnapshotList' },
)
const Restored = Type.Object(
  {
    snapshot: Type.Optional(
      Type.String({ description: 'the snapshot put back; absent for a reset' }),
    ),
    sessionsClosed: Type.Integer({
      description: 'the sessions it closed, with their subscriptions',
    }),
    callsEnded: Type.Integer({ description: 'the calls in progress before, which it ended' }),
    calls: Type.Integer({ description: "the calls in progress after: the snapshot's" }),
    durationMs: Type.Number({ description: 'how long it took' }),
  },
  { title: 'ControlRestored' },
)
const tags = ['snapshots']

function shown(info: SnapshotInfo) {
  return { name: info.name, takenAt: isoTime(info.takenAt), bytes: info.bytes }
}

/** `/reset` and `/snapshots`. */
export const snapshotRoutes: FastifyPluginAsyncTypebox<{ states: PlatformStates }> = async (
  app,
  { states },
) => {
  app.post(
    '/reset',
    {
      schema: {
        summary: "Puts back the directory file's state",
        description:
          "The directory file's users, devices, passwords and preferences; no routing, communication log, " +
          'voice message, call or call back; every session closed (with its subscriptions and channels), ' +
          "login attempts forgotten, faults cleared, the platform's links up, and the clock no longer ahead.",
        tags,
        response: { 200: Restored, ...errorResponses(401) },
      },
    },
    async () => states.reset(),
  )

  app.get(
    '/snapshots',
    {
      schema: {
        summary: 'Every snapshot, by name',
        tags,
        response: { 200: SnapshotList, ...errorResponses(401) },
      },
    },
    async () => ({ snapshots: (await states.list()).map(shown) }),
  )

  app.put(
    '/snapshots/:name',
    {
      schema: {
        summary: "Keeps the platform's state now under the name, replacing a snapshot of that name",
        description:
          'The directory, routing, communication logs, voice messages, the calls in progress with their ' +
          "timers, call backs, devices and the clock's offset; not the sessions. Kept in the database: " +
          "snapshots survive a restart and a cluster's nodes share them.",
        tags,
        params: NameParams,
        response: { 200: Snapshot, ...errorResponses(400, 401) },
      },
    },
    async (request) => shown(await states.snapshot(request.params.name)),
  )

  app.post(
    '/snapshots/:name/restore',
    {
      schema: {
        summary: 'Puts back the state the snapshot kept',
        description:
          'Every session is closed first (with its subscriptions and channels), login attempts are ' +
          "forgotten, faults cleared and the platform's links brought up; then the snapshot's state " +
          "replaces the platform's, the calls it kept in progress with their timers, and the clock goes " +
          'back (or forward) to the offset it had.',
        tags,
        params: NameParams,
        response: { 200: Restored, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => states.restore(request.params.name),
  )

  app.delete(
    '/snapshots/:name',
    {
      schema: {
        summary: 'Deletes the snapshot',
        tags,
        params: NameParams,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await states.delete(request.params.name)
      return reply.code(204).send(null)
    },
  )
}
