/**
 * The agent's desktop (service `AcdAgent`, `/acd/agent`; docs/contact-center.md; client census 2, 5c): an
 * operator's configuration and state, log on and off, processing groups entered and left (`/enter` and `/enterPG`,
 * `/exit` and `/exitPG`: the SDKs spell them both ways), ready, pause, withdraw, wrap-up, skills, help asked of the
 * supervisors. `loginName` names the operator for an administrator session. Status-only operations answer 204.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import {
  AgentGroupRequest,
  CancelSupervisorHelpQuery,
  IntrusionModeRequest,
  IntrusionRequest,
  OperatorConfig,
  OperatorLogonRequest,
  OperatorState,
  PermanentListeningRequest,
  SkillsActivationRequest,
  WithdrawReasons,
  WithdrawReasonsQuery,
  WithdrawRequest,
} from '@openness/wire'
import { PlatformError } from '../../platform/platform-error.js'
import {
  operatorConfig,
  operatorState,
  withdrawReasons,
} from '../../platform/telephony/acd-views.js'
import type { AcdCommand } from '../../platform/telephony/telephony-state.js'
import { type AcdOperator, acdOperator, listsContactCenter } from '../acd-access.js'
import { errorResponses } from '../error-responses.js'
import { LoginNameQuery, loginNameParameter } from '../login-name-query.js'
import { noContent, runCommand } from './telephony/route-support.js'

const tags = ['acd agent']

/** The set of the agent a supervisor listens to (DELETE /permanentListening names none): 403 when it listens to none. */
function listenedAgentOf(operator: AcdOperator): string {
  for (const agent of operator.acd.agents.values()) {
    if (agent.listenedBy === operator.loginName && agent.proAcdDeviceNumber !== undefined)
      return agent.proAcdDeviceNumber
  }
  throw new PlatformError('NOT_EXPECTED', `'${operator.loginName}' listens to no agent`)
}

const ReasonsQuery = Type.Object({
  ...WithdrawReasonsQuery.properties,
  loginName: loginNameParameter,
})
const HelpQuery = Type.Object({
  ...CancelSupervisorHelpQuery.properties,
  loginName: loginNameParameter,
})

/** A body-less agent action: its path, operationId, summary and the command it runs. */
const ACTIONS: readonly {
  path: string
  operationId: string
  summary: string
  command: (loginName: string) => AcdCommand
}[] = [
  {
    path: '/logoff',
    operationId: 'acdLogOff',
    summary: 'Log the operator off (already logged off: nothing changes)',
    command: (loginName) => ({ type: 'acdLogOff', loginName }),
  },
  {
    path: '/ready',
    operationId: 'acdReady',
    summary:
      'The agent is ready for ACD calls (from pause, withdraw, wrap-up or transaction code input)',
    command: (loginName) => ({ type: 'acdReady', loginName }),
  },
  {
    path: '/pause',
    operationId: 'acdPause',
    summary: 'The agent pauses: no ACD call is offered until it is ready again',
    command: (loginName) => ({ type: 'acdPause', loginName }),
  },
  {
    path: '/wrapUp',
    operationId: 'acdWrapUp',
    summary:
      "The agent wraps up: for its group's wrap-up time, then ready; busy in a call, the wrap-up follows the call",
    command: (loginName) => ({ type: 'acdWrapUp', loginName }),
  },
  {
    path: '/supervisorHelp',
    operationId: 'acdRequestHelp',
    summary: "Ask the supervisors of the agent's group for help (OnSupervisorHelpRequested)",
    command: (loginName) => ({ type: 'acdHelp', loginName, cancel: false }),
  },
  {
    path: '/state/snapshot',
    operationId: 'acdStateSnapshot',
    summary: "Have the operator's state sent as an OnAgentStateChanged event",
    command: (loginName) => ({ type: 'acdAgentSnapshot', loginName }),
  },
]

export const acdAgentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.platform.services.provide(
    'AcdAgent',
    listsContactCenter(() => app.platform.telephony.queries.acdState(), false),
  )

  app.get(
    '/config',
    {
      schema: {
        operationId: 'getOperatorConfig',
        summary: "The operator's configuration: type, groups, skills and what it may do",
        tags,
        querystring: LoginNameQuery,
        response: { 200: OperatorConfig, ...errorResponses(404) },
      },
    },
    async (request) => {
      const operator = acdOperator(request, request.query.loginName)
      return operatorConfig(operator.acd, operator.loginName)
    },
  )

  app.get(
    '/state',
    {
      schema: {
        operationId: 'getOperatorState',
        summary: "The operator's state: logged on or off, its sub-state, set and group",
        tags,
        querystring: LoginNameQuery,
        response: { 200: OperatorState, ...errorResponses(404) },
      },
    },
    async (request) => {
      const operator = acdOperator(request, request.query.loginName)
      return operatorState(operator.acd, operator.loginName)
    },
  )

  app.post(
    '/logon',
    {
      schema: {
        operationId: 'acdLogOn',
        summary:
          'Log the operator on at one of its sets, in the group named (else its preferred group, else none)',
        description:
          "A set that is not the operator's: 403 NOT_ALLOWED; an unknown set or group: 404; logged on at another set already: 403 NOT_EXPECTED.",
        tags,
        querystring: LoginNameQuery,
        body: OperatorLogonRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const operator = acdOperator(request, request.query.loginName)
      const { proAcdDeviceNumber, pgGroupNumber, headset } = request.body
      return runCommand(reply, {
        type: 'acdLogOn',
        loginName: operator.loginName,
        proAcdDeviceNumber,
        ...(pgGroupNumber !== undefined && pgGroupNumber !== '' && { pg: pgGroupNumber }),
        ...(headset !== undefined && { headset }),
      })
    },
  )

  for (const { path, operationId, summary, command } of ACTIONS)
    app.post(
      path,
      {
        schema: {
          operationId,
          summary,
          description:
            "Where the agent's state does not allow it: 403 NOT_EXPECTED, with the reason.",
          tags,
          querystring: LoginNameQuery,
          response: { ...noContent, ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const operator = acdOperator(request, request.query.loginName)
        return runCommand(reply, command(operator.loginName))
      },
    )

  // Enter and leave a processing group: the Node and browser SDKs post to /enter and /exit, the Java and C# SDKs
  // to /enterPG and /exitPG.
  for (const [path, enter, operationId] of [
    ['/enter', true, 'acdEnterGroup'],
    ['/enterPG', true, 'acdEnterGroupPG'],
    ['/exit', false, 'acdExitGroup'],
    ['/exitPG', false, 'acdExitGroupPG'],
  ] as const)
    app.post(
      path,
      {
        schema: {
          operationId,
          summary: enter
            ? 'The agent enters a processing group (one of its own, or any when it may assign itself): READY'
            : 'The agent leaves its processing group: OUT_OF_PG',
          tags,
          querystring: LoginNameQuery,
          body: AgentGroupRequest,
          response: { ...noContent, ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const operator = acdOperator(request, request.query.loginName)
        const pg = request.body.pgGroupNumber
        return runCommand(
          reply,
          enter
            ? { type: 'acdEnter', loginName: operator.loginName, pg }
            : { type: 'acdExit', loginName: operator.loginName, pg },
        )
      },
    )

  app.post(
    '/withdraw',
    {
      schema: {
        operationId: 'acdWithdraw',
        summary: "The agent withdraws, for one of its group's reasons",
        tags,
        querystring: LoginNameQuery,
        body: WithdrawRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const operator = acdOperator(request, request.query.loginName)
      return runCommand(reply, {
        type: 'acdWithdraw',
        loginName: operator.loginName,
        reasonIndex: request.body.reasonIndex,
      })
    },
  )

  app.get(
    '/withdrawReasons',
    {
      schema: {
        operationId: 'getWithdrawReasons',
        summary: 'The withdraw reasons of a processing group',
        tags,
        querystring: ReasonsQuery,
        response: { 200: WithdrawReasons, ...errorResponses(404) },
      },
    },
    async (request) => {
      const operator = acdOperator(request, request.query.loginName)
      return withdrawReasons(operator.acd, request.query.pgNumber)
    },
  )

  app.delete(
    '/supervisorHelp',
    {
      schema: {
        operationId: 'acdCancelHelp',
        summary:
          "An agent cancels its help request; a supervisor rejects the request of the agent at `other` (its set's number)",
        tags,
        querystring: HelpQuery,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const operator = acdOperator(request, request.query.loginName)
      const other = request.query.other
      return runCommand(reply, {
        type: 'acdHelp',
        loginName: operator.loginName,
        cancel: true,
        // A supervisor names the agent whose request it rejects; an agent its own set, or nothing.
        ...(operator.type === 'SUPERVISOR' && { agentNumber: other }),
      })
    },
  )

  for (const [method, start] of [
    ['post', true],
    ['delete', false],
  ] as const)
    app[method](
      '/permanentListening',
      {
        schema: {
          operationId: start ? 'acdStartListening' : 'acdStopListening',
          summary: start
            ? "A supervisor listens to an agent's calls, unseen: the one it talks in now and each it answers"
            : 'The supervisor stops listening (the Node SDK sends the agent again)',
          tags,
          querystring: LoginNameQuery,
          ...(start && { body: PermanentListeningRequest }),
          response: { ...noContent, ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const operator = acdOperator(request, request.query.loginName, 'SUPERVISOR')
        const body = request.body as { agentNumber?: string } | undefined
        const agentNumber = body?.agentNumber ?? listenedAgentOf(operator)
        return runCommand(reply, {
          type: 'acdListen',
          loginName: operator.loginName,
          agentNumber,
          start,
        })
      },
    )

  app.post(
    '/intrusion',
    {
      schema: {
        operationId: 'acdIntrude',
        summary:
          'A supervisor joins the call an agent talks in: NORMAL (three parties), RESTRICTED (with the agent only), DISCRETE (listening)',
        tags,
        querystring: LoginNameQuery,
        body: IntrusionRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const operator = acdOperator(request, request.query.loginName, 'SUPERVISOR')
      const mode = request.body.mode ?? 'NORMAL'
      if (mode === 'STOP')
        return runCommand(reply, { type: 'acdIntrusionMode', loginName: operator.loginName, mode })
      return runCommand(reply, {
        type: 'acdIntrude',
        loginName: operator.loginName,
        agentNumber: request.body.agentNumber,
        mode,
      })
    },
  )

  app.put(
    '/intrusion',
    {
      schema: {
        operationId: 'acdIntrusionMode',
        summary: "Change the supervisor's intrusion mode (STOP: leave the call)",
        tags,
        querystring: LoginNameQuery,
        body: IntrusionModeRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const operator = acdOperator(request, request.query.loginName, 'SUPERVISOR')
      return runCommand(reply, {
        type: 'acdIntrusionMode',
        loginName: operator.loginName,
        mode: request.body.mode,
      })
    },
  )

  app.delete(
    '/intrusion',
    {
      schema: {
        operationId: 'acdCancelHelpJava',
        summary:
          "The Java SDK's end of a help request: an agent cancels its own, a supervisor rejects the one made to it",
        tags,
        querystring: LoginNameQuery,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const operator = acdOperator(request, request.query.loginName)
      return runCommand(reply, { type: 'acdHelp', loginName: operator.loginName, cancel: true })
    },
  )

  for (const [path, active, operationId] of [
    ['/config/skills/activate', true, 'acdActivateSkills'],
    ['/config/skills/deactivate', false, 'acdDeactivateSkills'],
  ] as const)
    app.post(
      path,
      {
        schema: {
          operationId,
          summary: active
            ? "Activate some of the agent's skills (OnAgentSkillChanged)"
            : "Deactivate some of the agent's skills (OnAgentSkillChanged)",
          tags,
          querystring: LoginNameQuery,
          body: SkillsActivationRequest,
          response: { ...noContent, ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const operator = acdOperator(request, request.query.loginName)
        return runCommand(reply, {
          type: 'acdSkills',
          loginName: operator.loginName,
          skills: request.body.skills,
          active,
        })
      },
    )
}
