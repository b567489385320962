import { describe, expect, it } from 'vitest'
import { derivedOperationId, operationIdOf } from './operation-ids.js'

describe('operationIdOf', () => {
  it("keeps the route's own operationId", () => {
    expect(operationIdOf('POST', '/api/rest/1.0/telephony/calls', '/api/rest', 'makeCall')).toBe(
      'makeCall',
    )
  })

  it("turns @fastify/swagger's -head suffix into camelCase", () => {
    expect(
      operationIdOf('HEAD', '/api/rest/1.0/sessions/keepalive', '/api/rest', 'keepAlive-head'),
    ).toBe('keepAliveHead')
  })

  it('derives one from the method and the path when the route names none', () => {
    expect(operationIdOf('GET', '/api/rest/1.0/users/:loginName', '/api/rest', undefined)).toBe(
      'getUsersByLoginName',
    )
  })
})

describe('derivedOperationId', () => {
  it('drops the base path and the version, and names each parameter with By', () => {
    expect(
      derivedOperationId(
        'PATCH',
        '/control/v1/users/{loginName}/devices/{deviceId}',
        '/control/v1',
      ),
    ).toBe('patchUsersByLoginNameDevicesByDeviceId')
    expect(
      derivedOperationId('GET', '/api/rest/1.0/telephony/calls/:callRef/deviceLegs', '/api/rest'),
    ).toBe('getTelephonyCallsByCallRefDeviceLegs')
  })

  it('makes camelCase words of the segments that are not', () => {
    expect(derivedOperationId('POST', '/control/v1/faults/not-ready', '/control/v1')).toBe(
      'postFaultsNotReady',
    )
    expect(derivedOperationId('PUT', '/control/v1/health/pbx-link', '/control/v1')).toBe(
      'putHealthPbxLink',
    )
  })

  it('gives the base path itself the method alone', () => {
    expect(derivedOperationId('GET', '/api/rest', '/api/rest')).toBe('get')
  })
})
