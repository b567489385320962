/**
 * Directory search (service `Directory`, `/directory`; wire facts 8.4, docs/directory-search.md): start a
 * search, poll its results batch by batch, cancel it, with the requests every SDK sends. The search acts
 * for the session's user, or for `loginName` in an administrator session (one search per user it acts
 * for, at most five at once).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  LOGICAL_OPERATIONS,
  MAX_SEARCH_LIMIT,
  SEARCH_FIELDS,
  SEARCH_OPERATIONS,
  SearchCapabilities,
  SearchRequest,
  SearchResult,
} from '@openness/wire'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { SearchOwner } from '../../platform/directory-search/directory-search-service.js'
import { loginNameRule, sessionOf } from '../access.js'
import { errorResponses } from '../error-responses.js'
import { LoginNameQuery } from '../login-name-query.js'

const tags = ['directory']
const noContent = { 204: Type.Null() }

export const directoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.platform.services.provide('Directory')

  app.get(
    '',
    {
      schema: {
        operationId: 'getSearchCapabilities',
        summary: 'What a search may ask: the attributes, the operations and the largest limit',
        tags,
        querystring: LoginNameQuery,
        response: { 200: SearchCapabilities, ...errorResponses() },
      },
    },
    async () => ({
      attributes: [...SEARCH_FIELDS],
      operations: [...SEARCH_OPERATIONS, ...LOGICAL_OPERATIONS],
      maxLimit: MAX_SEARCH_LIMIT,
    }),
  )

  app.post(
    '/search',
    {
      schema: {
        operationId: 'search',
        summary: 'Start a search (replacing the one running for the same user): poll it with GET',
        tags,
        querystring: LoginNameQuery,
        body: SearchRequest,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { filter, limit } = request.body
      await request.server.platform.directorySearch.start(
        ownerOf(request, request.query.loginName),
        filter,
        limit,
      )
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/search',
    {
      schema: {
        operationId: 'getSearchResults',
        summary:
          'The next batch of the search: OK with contacts, FINISH at the end, TIMEOUT when none',
        tags,
        querystring: LoginNameQuery,
        response: { 200: SearchResult, ...errorResponses(404) },
      },
    },
    async (request) =>
      request.server.platform.directorySearch.poll(ownerOf(request, request.query.loginName)),
  )

  app.delete(
    '/search',
    {
      schema: {
        operationId: 'cancelSearch',
        summary: 'Cancel the search and free its context',
        tags,
        querystring: LoginNameQuery,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await request.server.platform.directorySearch.cancel(
        ownerOf(request, request.query.loginName),
      )
      return reply.code(204).send(null)
    },
  )
}

/** The session and the user its search acts for (`loginName` rule of the operations marked L). */
function ownerOf(request: FastifyRequest, asked: string | undefined): SearchOwner {
  const { loginName } = loginNameRule(request, asked)
  return { sessionId: sessionOf(request).sessionId, loginName }
}
