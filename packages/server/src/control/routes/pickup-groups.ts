/**
 * Pickup groups of the directory (docs/control-plane.md, "Pickup groups"): list, show, set the members of,
 * and delete a group. A user's own group is also its `pickupGroup` field (routes/users.ts). No OnUserInfoChanged
 * (the pickup group is not part of the User record the API shows); the members are told through the groups
 * events (docs/groups.md, "The groups resource").
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import type { Directory } from '../../platform/directory/directory.js'

const NameParams = Type.Object({ name: Type.String() })
const PickupGroup = Type.Object(
  {
    name: Type.String(),
    members: Type.Array(Type.String(), { description: 'login names of users, in order' }),
  },
  { title: 'PickupGroup' },
)
const PickupGroupList = Type.Object(
  { pickupGroups: Type.Array(PickupGroup) },
  { title: 'PickupGroupList' },
)
const PickupGroupMembers = Type.Object(
  {
    members: Type.Array(Type.String(), {
      minItems: 1,
      uniqueItems: true,
      description: "the users' login names: each joins the group, leaving its own",
    }),
  },
  { additionalProperties: false, title: 'PickupGroupMembers' },
)
const tags = ['pickup groups']

/** `/pickupGroups` and `/pickupGroups/{name}`. */
export const pickupGroupRoutes: FastifyPluginAsyncTypebox<{ directory: Directory }> = async (
  app,
  { directory },
) => {
  app.get(
    '/pickupGroups',
    {
      schema: {
        summary: 'Every pickup group with its members, by name',
        tags,
        response: { 200: PickupGroupList, ...errorResponses(401) },
      },
    },
    async () => ({ pickupGroups: directory.pickupGroups() }),
  )

  app.get(
    '/pickupGroups/:name',
    {
      schema: {
        summary: 'The pickup group and its members',
        tags,
        params: NameParams,
        response: { 200: PickupGroup, ...errorResponses(401, 404) },
      },
    },
    async (request) => directory.pickupGroup(request.params.name),
  )

  app.put(
    '/pickupGroups/:name',
    {
      schema: {
        summary: 'Make these users exactly the members of the pickup group (creating it)',
        description:
          'Each user listed joins the group, leaving the group it was in; each member not listed leaves ' +
          'it. The name has letters, digits, ".", "_" and "-" only.',
        tags,
        params: NameParams,
        body: PickupGroupMembers,
        response: { 200: PickupGroup, ...errorResponses(401) },
      },
    },
    async (request) => directory.setPickupGroup(request.params.name, request.body),
  )

  app.delete(
    '/pickupGroups/:name',
    {
      schema: {
        summary: 'Take every member out of the pickup group, which then no longer exists',
        tags,
        params: NameParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await directory.deletePickupGroup(request.params.name)
      return reply.code(204).send(null)
    },
  )
}
