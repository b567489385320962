import { describe, expect, it } from 'vitest'
import { PlatformError } from '../platform-error.js'
import { EngineFencedError } from './engine-fenced-error.js'
import { type EngineRequest, runEngineRequest, settleEngineOutcome } from './engine-request.js'

const request: EngineRequest = { kind: 'snapshot', loginName: 'alice' }

describe('runEngineRequest and settleEngineOutcome', () => {
  it('carries an answer through JSON unchanged', async () => {
    const answer = { result: { callRef: 'c1', events: [] }, batch: 3 }
    const outcome = await runEngineRequest(async () => answer, request, 'r1')
    expect(settleEngineOutcome(JSON.parse(JSON.stringify(outcome)))).toEqual(answer)
  })

  it('rebuilds a refusal through JSON as the same PlatformError', async () => {
    const refusal = new PlatformError('NOT_EXPECTED', 'The call is not on hold', 'state ACTIVE')
    const outcome = await runEngineRequest(async () => Promise.reject(refusal), request, 'r1')
    const rebuilt = (() => {
      try {
        settleEngineOutcome(JSON.parse(JSON.stringify(outcome)))
      } catch (error) {
        return error
      }
    })()
    expect(rebuilt).toBeInstanceOf(PlatformError)
    expect(rebuilt).toMatchObject({
      type: 'NOT_EXPECTED',
      message: 'The call is not on hold',
      innerMessage: 'state ACTIVE',
    })
  })

  it('tells a failure that is not a refusal by its message', async () => {
    const outcome = await runEngineRequest(
      async () => Promise.reject(new Error('disk full')),
      request,
      'r1',
    )
    expect(outcome).toEqual({ failed: 'disk full' })
    expect(() => settleEngineOutcome({ failed: 'disk full' })).toThrow(/disk full/)
  })

  it('leaves a request whose batch the fence refused unanswered, for the next owner', async () => {
    const outcome = await runEngineRequest(
      async () => Promise.reject(new EngineFencedError(4, 5)),
      request,
      'r1',
    )
    expect(outcome).toBeUndefined()
  })
})
