/**
 * Route schemas compiled on first use instead of at start-up. Fastify compiles every route's request
 * validators (Ajv) and response serializers (fast-json-stringify) when the app gets ready: about a third
 * of the service's start-up (docs/performance.md, "startup"), for routes most clients never call. These
 * compiler factories are Fastify's own, each compiled function made on the first call of its route.
 *
 * One difference with Fastify's defaults: Fastify lowercases the property names of a `headers` schema only
 * for its built-in validator compiler, so a headers schema here must name its headers in lower case (as
 * Node gives them); one that does not is refused when its route is added.
 */
import ajvCompiler from '@fastify/ajv-compiler'
import serializerCompiler from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'

/** How route schemas are compiled: when first used (the service), or all at start (a test that they compile). */
export type SchemaCompilation = 'lazy' | 'eager'

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>

/** What a compiler of either kind is given: the route, the part of the request or the status, the schema. */
interface RouteSchema {
  schema: unknown
  method: string
  url: string
  httpPart?: string
}

/** A request validator as Fastify calls it, Ajv's `errors` beside it after a failed call. */
interface Validator {
  (data: unknown): unknown
  errors?: unknown
}

type Compile<F> = (route: RouteSchema) => F
type Factory<F> = (externalSchemas: unknown, options: unknown) => Compile<F>

/** The `schemaController.compilersFactory` of a Fastify app whose route schemas compile on first use. */
export function lazySchemaCompilers(): CompilersFactory {
  const buildValidator = ajvCompiler() as unknown as Factory<Validator>
  const buildSerializer = serializerCompiler() as unknown as Factory<(data: unknown) => string>
  const lazyValidators: Factory<Validator> = (externalSchemas, options) => {
    const compile = buildValidator(externalSchemas, options)
    return (route) => {
      if (route.httpPart === 'headers') requireLowerCaseHeaders(route)
      let compiled: Validator | undefined
      const validate: Validator = (data) => {
        compiled ??= compile(route)
        const result = compiled(data)
        validate.errors = compiled.errors
        return result
      }
      return validate
    }
  }
  const lazySerializers: Factory<(data: unknown) => string> = (externalSchemas, options) => {
    const compile = buildSerializer(externalSchemas, options)
    return (route) => {
      let compiled: ((data: unknown) => string) | undefined
      return (data) => {
        compiled ??= compile(route)
        return compiled(data)
      }
    }
  }
  return {
    buildValidator: lazyValidators,
    buildSerializer: lazySerializers,
  } as unknown as CompilersFactory
}

/** Fastify's options for `compilation`: lazy compilers, or none (Fastify's own, compiling at ready). */
export function schemaCompilationOptions(
  compilation: SchemaCompilation,
): Pick<FastifyServerOptions, 'schemaController'> {
  return compilation === 'lazy'
    ? { schemaController: { compilersFactory: lazySchemaCompilers() } }
    : {}
}

function requireLowerCaseHeaders({ schema, method, url }: RouteSchema): void {
  const { properties = {}, required = [] } = schema as {
    properties?: Record<string, unknown>
    required?: string[]
  }
  const named = [...Object.keys(properties), ...required]
  const upper = named.find((name) => name !== name.toLowerCase())
  if (upper !== undefined)
    throw new Error(`${method} ${url}: name the header '${upper}' in lower case in its schema`)
}
