/** Turns Fastify/Ajv validation errors into one message that names the field (docs/errors.md). */
import type { FastifySchemaValidationError } from 'fastify/types/schema.js'

/** A message such as `supervisedAccount.type: must be one of LOGIN_NAME, PHONE_NUMBER, ...`. */
export function describeValidationError(
  errors: readonly FastifySchemaValidationError[],
  context: string | undefined,
): string {
  const error = errors[0]
  if (error === undefined) return 'Bad parameter'
  const base = error.instancePath
    .split('/')
    .filter((segment) => segment !== '')
    .join('.')
  const params = error.params as Record<string, unknown>
  const where = context === 'querystring' ? 'query parameter ' : ''
  switch (error.keyword) {
    case 'required': {
      const field = join(base, String(params['missingProperty']))
      return `${where}${field}: is required`
    }
    case 'additionalProperties': {
      const field = join(base, String(params['additionalProperty']))
      return `${where}${field}: is not a known field`
    }
    case 'enum': {
      const values = (params['allowedValues'] as unknown[] | undefined)?.join(', ') ?? ''
      return `${where}${base || context || 'value'}: must be one of ${values}`
    }
    default:
      return `${where}${base || context || 'value'}: ${error.message ?? 'is not valid'}`
  }
}

function join(base: string, field: string): string {
  return base === '' ? field : `${base}.${field}`
}
