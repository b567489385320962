import { COM_RECORD_REASONS, COM_RECORD_ROLES, type ComRecord, MAIN_TYPES } from '@openness/wire'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ComRecordDraft } from '../../platform/comlog/com-record.js'
import { APPEND_COLUMNS, appendRows, storedRecordJson } from './comlog-record-appender.js'

type StoredRecord = ComRecordDraft['record']

/** Any text, escapes and characters outside the BMP included, as names and numbers may hold. */
const text = fc.string({ unit: 'binary', maxLength: 12 })

const partyInfo = fc.record(
  {
    id: fc.record({ loginName: text, phoneNumber: text }, { requiredKeys: [] }),
    firstName: text,
    lastName: text,
    displayName: text,
    type: fc.record(
      { main: fc.constantFrom(...MAIN_TYPES), subType: text },
      { requiredKeys: ['main'] },
    ),
    vcardPath: text,
  },
  { requiredKeys: ['id'] },
)

const participant = fc.record(
  {
    role: fc.constantFrom(...COM_RECORD_ROLES),
    answered: fc.boolean(),
    identity: partyInfo,
    anonymous: fc.boolean(),
    initialCalled: partyInfo,
    reason: fc.constantFrom(...COM_RECORD_REASONS),
    leg: text,
  },
  { requiredKeys: ['role', 'answered', 'identity', 'reason'] },
)

const date = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString())

const storedRecord: fc.Arbitrary<StoredRecord> = fc.record(
  {
    comRef: text,
    participants: fc.array(participant, { maxLength: 4 }),
    beginDate: date,
    convDate: date,
    endDate: date,
    holdDuration: fc.nat(),
    transferredBy: text,
    associatedData: text,
  },
  { requiredKeys: ['comRef', 'participants', 'beginDate', 'endDate'] },
)

describe('storedRecordJson', () => {
  it('writes what JSON.stringify writes, read back the same (the keys in the schema order)', () => {
    fc.assert(
      fc.property(storedRecord, (record) => {
        expect(JSON.parse(storedRecordJson(record))).toStrictEqual(
          JSON.parse(JSON.stringify(record)),
        )
      }),
      { numRuns: 1_000 },
    )
  })

  it('leaves out the properties that are undefined, as JSON.stringify does', () => {
    const record: StoredRecord = {
      comRef: '7',
      participants: [],
      beginDate: '2026-11-24T10:00:00.000Z',
      endDate: '2026-11-24T10:01:00.000Z',
      convDate: undefined,
    }
    expect(JSON.parse(storedRecordJson(record))).toStrictEqual({
      comRef: '7',
      participants: [],
      beginDate: '2026-11-24T10:00:00.000Z',
      endDate: '2026-11-24T10:01:00.000Z',
    })
  })
})

describe('appendRows', () => {
  const record: StoredRecord = {
    comRef: '12',
    participants: [],
    beginDate: '2026-11-24T10:00:00.000Z',
    endDate: '2026-11-24T10:01:00.000Z',
  }
  const draft = (loginName: string, missed: boolean): ComRecordDraft => ({
    loginName,
    record,
    beginAt: 1_795_000_000_000,
    role: 'CALLEE',
    answered: !missed,
    reason: missed ? 'ABANDONED' : 'NORMAL',
    missed,
    remotePartyIds: ['alice', '1001'],
  })

  it('numbers the records from the first id, each row its values in the columns order', () => {
    const { rows, stored } = appendRows([draft('bob', true), draft('carol', false)], 41)
    const byColumn = rows.map((row) =>
      Object.fromEntries(APPEND_COLUMNS.map((column, index) => [column, row[index]])),
    )
    expect(byColumn).toStrictEqual([
      {
        record_id: 41,
        login_name: 'bob',
        begin_at: 1_795_000_000_000,
        com_ref: '12',
        role: 'CALLEE',
        answered: 0,
        acknowledged: 0,
        missed: 1,
        reason: 'ABANDONED',
        remote_ids: '|alice|1001|',
        record: storedRecordJson(record),
      },
      {
        record_id: 42,
        login_name: 'carol',
        begin_at: 1_795_000_000_000,
        com_ref: '12',
        role: 'CALLEE',
        answered: 1,
        acknowledged: 0,
        missed: 0,
        reason: 'NORMAL',
        remote_ids: '|alice|1001|',
        record: storedRecordJson(record),
      },
    ])
    const expected: ComRecord = { recordId: 41, ...record, acknowledged: false }
    expect(stored[0]).toStrictEqual({ loginName: 'bob', missed: true, record: expected })
    expect(stored[1]?.record.recordId).toBe(42)
  })
})
