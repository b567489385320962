/**
 * Redocly's recommended rules on both OpenAPI documents (issue 16, found 3): no error, and, for the API's, no
 * warning but the one docs/openapi.md explains (no `info.license`: the project has none to name). Linted with
 * @redocly/openapi-core, the engine of `redocly lint` (docs/dependencies.md).
 */
import { createConfig, lintFromString } from '@redocly/openapi-core'
import { describe, expect, it } from 'vitest'
import { openApiDocument } from '../../src/tools/openapi-document.js'
import { AUTH, startControlService } from '../control/control-fixture.js'

/** `{ "<severity> <rule>": count }` of the problems Redocly's recommended rules find in `source`. */
async function lintCounts(source: string): Promise<Record<string, number>> {
  const config = await createConfig({ extends: ['recommended'] })
  const problems = await lintFromString({ source, absoluteRef: '/openapi.json', config })
  const counts: Record<string, number> = {}
  for (const { severity, ruleId } of problems) {
    const key = `${severity} ${ruleId}`
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

describe("Redocly's recommended rules", () => {
  it('find no error in the API document, and one warning: no license', async () => {
    expect(await lintCounts(await openApiDocument())).toEqual({ 'warn info-license': 1 })
  })

  it("find no error in the control plane's document, and one warning: no license", async () => {
    const fixture = await startControlService()
    try {
      const response = await fixture.control.inject({
        url: '/control/v1/openapi.json',
        headers: AUTH,
      })
      expect(response.statusCode).toBe(200)
      expect(await lintCounts(response.body)).toEqual({ 'warn info-license': 1 })
    } finally {
      await fixture.close()
    }
  })

  it('do find the errors of a document without servers, as the document had before', async () => {
    const document = JSON.parse(await openApiDocument()) as { servers?: unknown }
    delete document.servers
    expect(await lintCounts(JSON.stringify(document))).toMatchObject({
      'error no-empty-servers': 1,
    })
  })
})
