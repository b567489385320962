import { describe, expect, it } from 'vitest'
import { nameTitledSchemas } from './openapi-schemas.js'

const Leg = { type: 'object', title: 'Leg', properties: { deviceId: { type: 'string' } } }
const Call = {
  type: 'object',
  title: 'Call',
  properties: { legs: { type: 'array', items: Leg }, callRef: { type: 'string' } },
}
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } })

describe('nameTitledSchemas', () => {
  it('moves each titled schema to the components under its title, nested ones too', () => {
    const document = nameTitledSchemas({
      paths: {
        '/calls': {
          get: { responses: { 200: json({ type: 'array', items: Call }) } },
          post: { requestBody: json(Leg), responses: { 201: json(Call) } },
        },
      },
    })
    expect(document.paths?.['/calls']).toEqual({
      get: {
        responses: {
          200: json({ type: 'array', items: { $ref: '#/components/schemas/Call' } }),
        },
      },
      post: {
        requestBody: json({ $ref: '#/components/schemas/Leg' }),
        responses: { 201: json({ $ref: '#/components/schemas/Call' }) },
      },
    })
    expect(document.components?.schemas).toEqual({
      Call: {
        ...Call,
        properties: {
          ...Call.properties,
          legs: { type: 'array', items: { $ref: '#/components/schemas/Leg' } },
        },
      },
      Leg,
    })
  })

  it('names the schemas of parameters and headers, and those already in the components keep their place', () => {
    const State = { type: 'string', title: 'State', enum: ['IDLE', 'ACTIVE'] }
    const ErrorRecord = { type: 'object', properties: { state: State } }
    const document = nameTitledSchemas({
      components: { schemas: { Error: ErrorRecord } },
      paths: {
        '/x': {
          get: {
            parameters: [{ in: 'query', name: 'state', schema: State }],
            responses: {
              400: {
                headers: { 'x-state': { schema: State } },
                ...json({ $ref: '#/components/schemas/Error' }),
              },
            },
          },
        },
      },
    })
    const get = document.paths?.['/x']?.['get'] as {
      parameters: { schema: unknown }[]
      responses: Record<string, { headers: Record<string, { schema: unknown }> }>
    }
    expect(get.parameters[0]?.schema).toEqual({ $ref: '#/components/schemas/State' })
    expect(get.responses['400']?.headers['x-state']?.schema).toEqual({
      $ref: '#/components/schemas/State',
    })
    expect(document.components?.schemas).toEqual({
      Error: { type: 'object', properties: { state: { $ref: '#/components/schemas/State' } } },
      State,
    })
  })

  it('leaves inline the schemas that share a title but differ, and the titles no component may have', () => {
    const one = { type: 'object', title: 'Party', properties: { id: { type: 'string' } } }
    const other = { type: 'object', title: 'Party', properties: { id: { type: 'integer' } } }
    const spaced = { type: 'string', title: 'Not a name' }
    const document = nameTitledSchemas({
      paths: {
        '/a': { get: { responses: { 200: json(one) } } },
        '/b': { get: { responses: { 200: json(other) } } },
        '/c': { get: { responses: { 200: json(spaced) } } },
      },
    })
    expect(document.paths?.['/a']?.['get']).toEqual({ responses: { 200: json(one) } })
    expect(document.paths?.['/b']?.['get']).toEqual({ responses: { 200: json(other) } })
    expect(document.paths?.['/c']?.['get']).toEqual({ responses: { 200: json(spaced) } })
    expect(document.components?.schemas).toEqual({})
  })

  it('reads enum and example values as data, not as schemas', () => {
    const document = nameTitledSchemas({
      paths: {
        '/a': {
          get: {
            responses: {
              200: json({ type: 'object', enum: [{ title: 'data' }], default: { title: 'data' } }),
            },
          },
        },
      },
    })
    expect(document.components?.schemas).toEqual({})
  })
})
