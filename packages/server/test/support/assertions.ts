/** Assertions shared by route tests: a RestErrorInfo of the expected type, and schema checks. */
import { REST_ERROR_TYPES, RestErrorInfo, type RestErrorType } from '@openness/wire'
import type { LightMyRequestResponse } from 'fastify'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { expect } from 'vitest'

const STATUS_NAMES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  422: 'UNPROCESSABLE_ENTITY',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
}

/** Asserts the response is a RestErrorInfo of `type` with `status`, whose helpMessage matches `message`. */
export function expectRestError(
  response: LightMyRequestResponse,
  status: number,
  type: RestErrorType,
  message?: RegExp,
): RestErrorInfo {
  expect(response.statusCode, response.body).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/json/)
  const body = response.json() as RestErrorInfo
  expect(Value.Check(RestErrorInfo, body)).toBe(true)
  expect(body).toMatchObject({
    type,
    code: REST_ERROR_TYPES[type].code,
    httpStatus: STATUS_NAMES[status],
    canRetry: REST_ERROR_TYPES[type].canRetry,
  })
  expect(body.helpMessage).toBeTruthy()
  if (message) expect(body.helpMessage).toMatch(message)
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.(ts|js):\d+/)
  return body
}

/** Asserts the body of a response satisfies a wire schema and returns it typed. */
export function expectSchema<T>(
  schema: TSchema,
  response: LightMyRequestResponse,
  status = 200,
): T {
  expect(response.statusCode, response.body).toBe(status)
  const body = response.json() as T
  const errors = [...Value.Errors(schema, body)]
  expect(errors, JSON.stringify(errors.slice(0, 3))).toEqual([])
  return body
}
