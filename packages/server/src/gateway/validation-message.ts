/**
 * Turns Fastify/Ajv validation errors into one message that names each field at fault (docs/errors.md): every
 * error of the request (Ajv's `allErrors`, app.ts), so that a misspelt field is told as unknown beside the one it
 * should have been (`calee: is not a known field; callee: is required`), up to MAX_DESCRIBED.
 */
import type { FastifySchemaValidationError } from 'fastify/types/schema.js'

/** The errors a message names at most; the rest are counted. */
export const MAX_DESCRIBED = 5

/**
 * A message such as `supervisedAccount.type: must be one of LOGIN_NAME, PHONE_NUMBER, ...`, each error once, the
 * unknown fields first (a misspelling is told before the field it stands for), `; ` between them.
 */
export function describeValidationError(
  errors: readonly FastifySchemaValidationError[],
  context: string | undefined,
): string {
  if (errors.length === 0) return 'Bad parameter'
  const ordered = [
    ...errors.filter((error) => error.keyword === 'additionalProperties'),
    ...errors.filter((error) => error.keyword !== 'additionalProperties'),
  ]
  // Described until MAX_DESCRIBED differ: a hostile body may bring thousands of errors, counted, not described.
  const described = new Set<string>()
  let taken = 0
  while (taken < ordered.length && described.size < MAX_DESCRIBED)
    described.add(describeOne(ordered[taken++] as FastifySchemaValidationError, context))
  const more = ordered.length - taken
  const shown = [...described].join('; ')
  return more > 0 ? `${shown}; and ${more} more` : shown
}

function describeOne(error: FastifySchemaValidationError, context: string | undefined): string {
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
