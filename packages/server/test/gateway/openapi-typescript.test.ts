/**
 * A client generator gets named types from the OpenAPI document (issue 16, found 3): openapi-typescript, run as
 * docs/openapi.md tells a user to, declares the wire records under their names and the operations under their
 * operationIds, and the code it writes compiles with a client's use of those names.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openApiDocument } from '../../src/tools/openapi-document.js'

let source: string
beforeAll(async () => {
  source = astToString(await openapiTS(JSON.parse(await openApiDocument())))
})

const directory = mkdtempSync(join(tmpdir(), 'openapi-typescript-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

/** The TypeScript errors of `files` (name → text) compiled together, strictly. */
function compileErrors(files: Record<string, string>): string[] {
  const names = Object.entries(files).map(([name, text]) => {
    const path = join(directory, name)
    writeFileSync(path, text)
    return path
  })
  const program = ts.createProgram(names, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  })
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
}

describe('openapi-typescript on the OpenAPI document', () => {
  it('declares the wire records as named schemas and the operations by operationId', () => {
    expect(source).toMatch(/^export interface components \{$/m)
    expect(source).toMatch(/^export interface operations \{$/m)
    for (const record of ['SessionInfo', 'RestErrorInfo', 'Call', 'MakeCallRequest', 'User'])
      expect(source).toMatch(new RegExp(`^ {8}${record}: \\{$`, 'm'))
    for (const operation of ['getSessionInfo', 'openSession', 'makeCall', 'answerCall'])
      expect(source).toMatch(new RegExp(`^ {4}${operation}: \\{$`, 'm'))
    expect(source).toContain('get: operations["getSessionInfo"];')
    expect(source).toContain('"application/json": components["schemas"]["SessionInfo"];')
  })

  it('writes code that compiles with a client using those names', () => {
    const client = [
      "import type { components, operations, paths } from './schema.js'",
      "type SessionInfo = components['schemas']['SessionInfo']",
      "type Answer = operations['getSessionInfo']['responses'][200]['content']['application/json']",
      "type MakeCall = operations['makeCall']['requestBody']",
      "type Error403 = paths['/api/rest/1.0/sessions']['get']['responses'][403]['content']['application/json']",
      'const info: Answer = { timeToLive: 300, privateBaseUrl: "/api/rest/1.0", services: [], capabilities: [] }',
      'const same: SessionInfo = info',
      "const call: NonNullable<MakeCall>['content']['application/json'] = { deviceId: '1', callee: '2' }",
      "const error: Error403 = { httpStatus: 'FORBIDDEN', code: 1, type: 'INVALID_SESSION', helpMessage: 'x', innerMessage: 'x', canRetry: false }",
      'export const used = [same, call, error]',
    ].join('\n')
    expect(compileErrors({ 'schema.ts': source, 'client.ts': client })).toEqual([])
  })

  it('catches a client using a name the document does not have', () => {
    const client = [
      "import type { components } from './schema.js'",
      "export type Missing = components['schemas']['NoSuchRecord']",
    ].join('\n')
    expect(compileErrors({ 'schema.ts': source, 'wrong.ts': client })).toEqual([
      expect.stringContaining('NoSuchRecord'),
    ])
  })
})
