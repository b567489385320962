/**
 * Scenarios (docs/scenarios.md): run a scenario file sent as YAML or JSON, or one of the library by name, and
 * answer its result; list and show the library. A file with problems is 400 BAD_PARAMETER naming each by its
 * path (and line); a run that does not meet its expectations is still 200, with `passed: false`.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../gateway/error-responses.js'
import { PlatformError } from '../../platform/platform-error.js'
import { ScenarioDocument } from '../scenarios/scenario-document.js'
import { readScenarioText, readScenarioValue } from '../scenarios/scenario-file.js'
import type { ScenarioLibrary } from '../scenarios/scenario-library.js'
import { ScenarioResult } from '../scenarios/scenario-result.js'
import type { ScenarioRunner } from '../scenarios/scenario-runner.js'

/** The content types a scenario may come in besides JSON. */
export const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml']

const RunQuery = Type.Object(
  {
    reset: Type.Optional(
      Type.String({
        description: "true: return the service to the directory file's state first",
      }),
    ),
  },
  { additionalProperties: false },
)
const NameParams = Type.Object({ name: Type.String() })
const LibraryEntry = Type.Object(
  {
    name: Type.String({ description: 'the file scenarios/<name>.yaml' }),
    description: Type.Optional(Type.String({ description: 'its first paragraph' })),
    problems: Type.Optional(
      Type.Array(Type.String(), { description: 'why it cannot be run, when it cannot' }),
    ),
  },
  { title: 'ScenarioLibraryEntry' },
)
const Library = Type.Object({ scenarios: Type.Array(LibraryEntry) }, { title: 'ScenarioLibrary' })
const tags = ['scenarios']
const refusals = errorResponses(400, 401, 404)

/** `?reset=true|false`. */
function resetOf(query: { reset?: string }): boolean | undefined {
  const { reset } = query
  if (reset === undefined) return undefined
  if (reset !== 'true' && reset !== 'false')
    throw new PlatformError('BAD_PARAMETER', 'query parameter reset: must be true or false')
  return reset === 'true'
}

/** The scenario of a body: YAML text, or a JSON object. */
function scenarioOf(body: unknown): ScenarioDocument {
  if (body === undefined || body === null || (typeof body === 'string' && body.trim() === ''))
    throw new PlatformError(
      'BAD_PARAMETER',
      'body: the scenario is required, as YAML (Content-Type: application/yaml) or JSON',
    )
  return typeof body === 'string' ? readScenarioText(body) : readScenarioValue(body)
}

/** `/scenarios`, over the runner and the library. */
export const scenarioRoutes: FastifyPluginAsyncTypebox<{
  runner: ScenarioRunner
  library: ScenarioLibrary
}> = async (app, { runner, library }) => {
  app.addContentTypeParser(YAML_TYPES, { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  )

  app.post(
    '/scenarios/run',
    {
      schema: {
        summary: 'Run a scenario sent as YAML or JSON, and answer its result',
        description:
          'The body is the scenario file (docs/scenarios.md): YAML with Content-Type application/yaml ' +
          '(or text/yaml), or the same as JSON. A file with problems is 400 BAD_PARAMETER listing every ' +
          'one by its path and line. The run holds the service clock and moves it itself; the answer ' +
          'comes when the scenario ends, with passed true or false.',
        tags,
        querystring: RunQuery,
        body: ScenarioDocument,
        response: { 200: ScenarioResult, ...refusals },
      },
    },
    async (request) => {
      const reset = resetOf(request.query)
      return runner.run(scenarioOf(request.body), reset === undefined ? {} : { reset })
    },
  )

  app.get(
    '/scenarios',
    {
      schema: {
        summary: 'The scenario library: the common CTI cases, runnable by name',
        tags,
        response: { 200: Library, ...errorResponses(401) },
      },
    },
    async () => ({ scenarios: await library.list() }),
  )

  app.get(
    '/scenarios/:name',
    {
      schema: {
        summary: 'A scenario of the library, as its YAML file',
        tags,
        params: NameParams,
        response: { 200: Type.String(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) =>
      reply.type('application/yaml').send(await library.text(request.params.name)),
  )

  app.post(
    '/scenarios/:name/run',
    {
      schema: {
        summary: 'Run a scenario of the library, and answer its result',
        tags,
        params: NameParams,
        querystring: RunQuery,
        response: { 200: ScenarioResult, ...refusals },
      },
    },
    async (request) => {
      const reset = resetOf(request.query)
      const document = readScenarioText(await library.text(request.params.name))
      return runner.run(document, reset === undefined ? {} : { reset })
    },
  )
}
