/**
 * Hunting groups (docs/control-plane.md, "Hunting groups"; docs/groups.md): list and show them with their
 * members' log-on states and the calls waiting, create or change one, delete one, and log a member on or off,
 * as the operator of the PBX does. Each is a command of the call engine, as the API's are: the members are told
 * (OnDynamicStateChanged) and calls follow at once.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import { findHuntingGroupProblems } from '../../platform/directory/directory-document.js'
import { DirectoryHuntingGroup } from '../../platform/directory/directory-file-schema.js'
import { huntingGroupOf } from '../../platform/directory/directory-import.js'
import { describeDirectoryProblem } from '../../platform/directory/directory-problem.js'
import { PlatformError } from '../../platform/platform-error.js'
import { type HuntingGroup, isLoggedOn } from '../../platform/telephony/hunting-groups.js'
import { type ControlTelephony, DONE } from './route-support.js'

const GroupParams = Type.Object({ number: Type.String() })
const MemberParams = Type.Object({ number: Type.String(), loginName: Type.String() })
const { number: _number, ...settings } = DirectoryHuntingGroup.properties
/** PUT's body: the directory file's entry without the number, which is the path's. */
const GroupSettings = Type.Object(settings, {
  additionalProperties: false,
  title: 'ControlHuntingGroupSettings',
})
const ControlHuntingGroup = Type.Object(
  {
    ...DirectoryHuntingGroup.properties,
    members: Type.Array(Type.Object({ loginName: Type.String(), logon: Type.Boolean() }), {
      description: 'in hunt order, with whether each is logged on',
    }),
    noAnswerSeconds: Type.Number(),
    queueSize: Type.Integer(),
    selfJoin: Type.Boolean(),
    waiting: Type.Array(Type.String(), {
      description: 'the callRefs of the calls waiting, oldest first',
    }),
    lastServed: Type.Optional(
      Type.String({ description: 'CIRCULAR: the member who answered last' }),
    ),
  },
  { title: 'ControlHuntingGroup' },
)
const ControlHuntingGroups = Type.Object(
  { huntingGroups: Type.Array(ControlHuntingGroup) },
  { title: 'ControlHuntingGroups' },
)
const tags = ['hunting groups']

/** A group as the control plane shows it: the directory file's form, with its members' states. */
function shown(group: HuntingGroup) {
  return {
    number: group.number,
    name: group.name,
    policy: group.policy,
    members: group.members.map((loginName) => ({
      loginName,
      logon: isLoggedOn(group, loginName),
    })),
    noAnswerSeconds: group.noAnswerMs / 1000,
    whenBusy: group.whenBusy,
    queueSize: group.queueSize,
    ...(group.queueTimeoutMs !== undefined && { queueTimeoutSeconds: group.queueTimeoutMs / 1000 }),
    ...(group.overflow !== undefined && { overflow: group.overflow }),
    selfJoin: group.selfJoin,
    waiting: group.queue,
    ...(group.lastServed !== undefined && { lastServed: group.lastServed }),
  }
}

/** `/huntingGroups`, `/huntingGroups/{number}` and its members' log-on. */
export const huntingGroupRoutes: FastifyPluginAsyncTypebox<{
  telephony: ControlTelephony
}> = async (app, { telephony }) => {
  const find = (number: string) => {
    const group = telephony.queries.allHuntingGroups().find((each) => each.number === number)
    if (group === undefined) throw new PlatformError('NOT_FOUND', `No hunting group '${number}'`)
    return group
  }

  app.get(
    '/huntingGroups',
    {
      schema: {
        summary: 'Every hunting group, by number, with its members and the calls waiting',
        tags,
        response: { 200: ControlHuntingGroups, ...errorResponses(401) },
      },
    },
    async () => ({ huntingGroups: telephony.queries.allHuntingGroups().map(shown) }),
  )

  app.get(
    '/huntingGroups/:number',
    {
      schema: {
        summary: 'One hunting group',
        tags,
        params: GroupParams,
        response: { 200: ControlHuntingGroup, ...errorResponses(401, 404) },
      },
    },
    async (request) => shown(find(request.params.number)),
  )

  app.put(
    '/huntingGroups/:number',
    {
      schema: {
        summary: 'Create the hunting group, or change it',
        description:
          "The body is an entry of the directory file's huntingGroups without its number (docs/directory-file.md). " +
          'Members who leave stop ringing for the group and are logged off; members who join are logged on.',
        tags,
        params: GroupParams,
        body: GroupSettings,
        response: { 200: ControlHuntingGroup, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { number } = request.params
      const group = { ...request.body, number }
      const problems = findHuntingGroupProblems(group)
      if (problems.length > 0)
        throw new PlatformError('BAD_PARAMETER', problems.map(describeDirectoryProblem).join('; '))
      await telephony.execute({ type: 'setHuntingGroup', group: huntingGroupOf(group) })
      return shown(find(number))
    },
  )

  app.delete(
    '/huntingGroups/:number',
    {
      schema: {
        summary: 'Delete the hunting group: its members are logged off, its calls end',
        tags,
        params: GroupParams,
        response: DONE,
      },
    },
    async (request, reply) => {
      await telephony.execute({ type: 'deleteHuntingGroup', number: request.params.number })
      return reply.code(204).send(null)
    },
  )

  for (const [action, logOn] of [
    ['logon', true],
    ['logoff', false],
  ] as const)
    app.post(
      `/huntingGroups/:number/members/:loginName/${action}`,
      {
        schema: {
          summary: logOn ? 'Log the member on' : 'Log the member off',
          tags,
          params: MemberParams,
          response: DONE,
        },
      },
      async (request, reply) => {
        const { number, loginName } = request.params
        if (!find(number).members.includes(loginName))
          throw new PlatformError(
            'NOT_FOUND',
            `'${loginName}' is not a member of hunting group ${number}`,
          )
        await telephony.execute({ type: 'huntingGroupLogOn', loginName, logOn })
        return reply.code(204).send(null)
      },
    )
}
