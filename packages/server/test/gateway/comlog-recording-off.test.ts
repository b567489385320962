/**
 * COMLOG_RECORDING=off (docs/comlog.md, "Turning recording off"): the engine writes no record, and the log
 * keeps what it held, readable and deletable, over a restart of the service on the same database.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ComRecords } from '@openness/wire'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTelephonyTest, T } from './telephony/support.js'

const C = '/api/rest/1.0/comlog/records'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'openness-comlog-off-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

/** A platform over the test's SQLite file, recording or not; makes and releases one call alice → bob. */
async function oneCall(comlogRecording: boolean) {
  const test = await startTelephonyTest({
    database: { kind: 'sqlite', filename: join(root, 'openness.sqlite3') },
    comlogRecording,
  })
  const callRef = await test.makeCall('alice', '1001', '1002')
  expect((await test.send('alice', 'DELETE', `${T}/calls/${callRef}`)).statusCode).toBe(204)
  const page = (await test.send('alice', 'GET', C)).json() as ComRecords
  return { test, callRef, page }
}

describe('recording off', () => {
  it('writes no record, and keeps the ones written before, readable and deletable', async () => {
    const before = await oneCall(true)
    expect(before.page.records?.map((record) => record.comRef)).toStrictEqual([before.callRef])
    await before.test.close()

    const off = await oneCall(false)
    try {
      expect(off.page.totalCount).toBe(1)
      expect(off.page.records?.map((record) => record.comRef)).toStrictEqual([before.callRef])
      const recordId = off.page.records?.[0]?.recordId
      expect((await off.test.send('alice', 'DELETE', `${C}/${recordId}`)).statusCode).toBe(204)
      expect(((await off.test.send('alice', 'GET', C)).json() as ComRecords).totalCount).toBe(0)
    } finally {
      await off.test.close()
    }
  })
})
