/**
 * The journal from the command line (docs/journal.md, "Command line"): `journal` with filters, one readable
 * line per entry; `journal follow`; `journal clear`; `journal verify <file|->` and its exit codes.
 */
import { mkdtemp, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from './control-fixture.js'
import { API, type JournalService, startJournalService } from './journal-fixture.js'

let test: JournalService
let url: string
let callRef: string
beforeEach(async () => {
  test = await startJournalService({}, ['alice', 'bob'], 50)
  await test.control.listen({ host: '127.0.0.1', port: 0 })
  url = `http://127.0.0.1:${(test.control.server.address() as AddressInfo).port}`
  await test.subscribe('bob')
  callRef = await test.call('bob', '1002', '1001')
  await test.api('alice', 'POST', `${API}/telephony/calls/${callRef}/answer`, { deviceId: '1001' })
  await test.api('alice', 'GET', `${API}/telephony/calee`)
})
afterEach(() => test.close())

describe('journal', () => {
  it('prints the entries oldest first, one readable line each', async () => {
    const run = await runCli(url, ['journal', '--kind', 'request', '--user', 'alice'])

    expect(run.code, run.err).toBe(0)
    const lines = run.out.trimEnd().split('\n')
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^#\\d+ 2026-01-01T00:00:00.000Z request   alice POST ${API}/telephony/calls/${callRef}/answer → 204 \\([\\d.]+ ms\\) answerCall call=${callRef}$`,
      ),
    )
    expect(lines[0]).toMatch(/request {3}alice GET \/api\/rest\/authenticate\?version=1.0 → 200/)
  })

  it('prints events and near-misses in their own words', async () => {
    const events = await runCli(url, ['journal', '--event', 'OnCallModified', '--limit', '1'])
    expect(events.out).toMatch(
      new RegExp(
        `^#\\d+ \\S+ event {5}bob OnCallModified call=${callRef} subscription=\\w+ #\\d+\\n$`,
      ),
    )
    const misses = await runCli(url, ['journal', '--kind', 'near-miss'])
    expect(misses.out).toContain(`near-miss GET ${API}/telephony/calee → 404 (`)
    expect(misses.out).toContain(`did you mean GET ${API}/telephony/calls`)
  })

  it('--json prints the page; no entry says so; a bad filter fails with the message', async () => {
    const json = await runCli(url, ['journal', '--kind', 'control', '--json'])
    expect(JSON.parse(json.out)).toEqual({ entries: [] })
    expect((await runCli(url, ['journal', '--kind', 'control'])).out).toBe('No entry.\n')
    const bad = await runCli(url, ['journal', '--status', 'teapot'])
    expect(bad.code).toBe(1)
    expect(bad.err).toMatch(/^status: 'teapot' is not an HTTP status/)
  })
})

describe('journal follow', () => {
  it('prints entries as they are recorded, filtered, and stops after --count', async () => {
    const following = runCli(url, ['journal', 'follow', '--kind', 'control', '--count', '2'])
    await new Promise((resolve) => setTimeout(resolve, 100))
    await test.api('alice', 'GET', `${API}/sessions`)
    await test.operator('POST', '/clock/advance', { seconds: 1 })
    await test.operator('DELETE', '/faults')

    const run = await following
    expect(run.code, run.err).toBe(0)
    const lines = run.out.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(
      /control {3}POST \/control\/v1\/clock\/advance → 200 .* postClockAdvance$/,
    )
    expect(lines[1]).toMatch(/control {3}DELETE \/control\/v1\/faults → 204 .* deleteFaults$/)
  })
})

describe('journal clear', () => {
  it('empties the journal', async () => {
    const run = await runCli(url, ['journal', 'clear'])
    expect(run).toEqual({ code: 0, out: 'The journal is empty.\n', err: '' })
    expect(await test.entries()).toEqual([])
  })
})

describe('journal verify', () => {
  it('a YAML file of patterns that matched: exit code 0 and the entries', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'journal-cli-'))
    const file = join(dir, 'answered.yaml')
    await writeFile(
      file,
      '- {kind: request, user: alice, operation: answerCall}\n- {kind: event, user: bob, event: OnCallModified}\n',
    )
    const run = await runCli(url, ['journal', 'verify', file])

    expect(run.code, run.err).toBe(0)
    expect(run.out).toMatch(/^Matched: every pattern, in order.\n {2}1\. #\d+ .* answerCall /)
    expect(run.out).toMatch(/\n {2}2\. #\d+ .* OnCallModified /)
  })

  it('patterns that did not match, from stdin: exit code 1, the failed pattern and the closest entries', async () => {
    const run = await runCli(url, ['journal', 'verify', '-'], {
      stdin: JSON.stringify({
        patterns: [{ kind: 'request', user: 'alice', operation: 'holdCall' }],
      }),
    })

    expect(run.code).toBe(1)
    expect(run.out).toMatch(
      /^Not matched: pattern 1 \{"kind":"request","user":"alice","operation":"holdCall"\} found no entry/,
    )
    expect(run.out).toContain('Closest entries:')
    expect(run.out).toMatch(/ {6}operation: expected holdCall, got /)
  })

  it('a bad pattern: exit code 1 and the message naming the field', async () => {
    const run = await runCli(url, ['journal', 'verify', '-'], { stdin: '[{colour: red}]' })
    expect(run.code).toBe(1)
    expect(run.err).toMatch(/^patterns\[0\]\.colour: not a known field/)
  })
})
