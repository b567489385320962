/**
 * Number formatting: GET /telephony/numbering/canonical and /telephony/numbering/dialable (specification,
 * "Call control"; docs/numbering.md). No license: any open session, acting on a user by the L rule, with
 * the dialing rule its User record shows.
 */
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { Numbering } from '@openness/wire'
import type { FastifyRequest } from 'fastify'
import {
  type CompanyNumbers,
  canonicalNumber,
  DEFAULT_RESULT_PATTERN,
  type DialingRule,
  dialableNumber,
} from '../../../platform/numbering/numbering.js'
import { PlatformError } from '../../../platform/platform-error.js'
import { DirectoryTelephony } from '../../../platform/telephony/directory-telephony.js'
import { loginNameRule } from '../../access.js'
import { errorResponses } from '../../error-responses.js'

const tags = ['telephony']
const config = { session: 'open' as const }

const NumberQuery = {
  loginName: Type.Optional(
    Type.String({ description: 'required for an administrator session, ignored otherwise' }),
  ),
  phoneNumber: Type.String({
    maxLength: 64,
    description: 'digits, optionally after +, optionally separated by space ( ) - . /',
  }),
  isPrefixIncluded: Type.Optional(
    Type.Boolean({
      description:
        "whether phoneNumber starts with the user's external prefix; ignored when it does not start with it; absent: found out from the number",
    }),
  ),
}

const CanonicalQuery = Type.Object({
  ...NumberQuery,
  resultPattern: Type.Optional(
    Type.String({
      maxLength: 64,
      description: `C country code, A area code (national prefix too in a pattern without C), a area code only, x a digit; separators space ( ) - . / and +. Default: ${DEFAULT_RESULT_PATTERN}`,
    }),
  ),
})
const DialableQuery = Type.Object(NumberQuery)

/** The dialing rule of the user the request acts for, as its User record shows it. */
function dialingRuleOf(request: FastifyRequest, loginName: string | undefined): DialingRule {
  const user = loginNameRule(request, loginName)
  const rule = request.server.platform.directory.userView(user, true).dialingRule
  if (rule === undefined)
    throw new PlatformError('SERVER_PROBLEM', `User '${user.loginName}' has no dialing rule`)
  return rule
}

/** The company's public numbers, as incoming calls reach them (DirectoryTelephony.companyNumbers). */
function companyNumbersOf(request: FastifyRequest): CompanyNumbers | undefined {
  return new DirectoryTelephony(request.server.platform.directory).companyNumbers()
}

export const numberingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/canonical',
    {
      config,
      schema: {
        operationId: 'getCanonicalNumber',
        summary: 'The canonical form of a phone number, laid out by resultPattern',
        tags,
        querystring: CanonicalQuery,
        // Specification: canonical also lists 401, which this server never answers (docs/numbering.md).
        response: { 200: Numbering, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { loginName, ...input } = request.query
      return {
        canonical: canonicalNumber(
          input,
          dialingRuleOf(request, loginName),
          companyNumbersOf(request),
        ),
      }
    },
  )

  app.get(
    '/dialable',
    {
      config,
      schema: {
        operationId: 'getDialableNumber',
        summary:
          "The digits to dial for a phone number, with the external prefix the user's rule needs",
        tags,
        querystring: DialableQuery,
        response: { 200: Numbering, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { loginName, ...input } = request.query
      return {
        dialable: dialableNumber(
          input,
          dialingRuleOf(request, loginName),
          companyNumbersOf(request),
        ),
      }
    },
  )
}
