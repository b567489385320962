/** The VoicemailStore port in the `voicemail_message` table: one row per message, its audio in the row. */
import type { PartyInfo } from '@openness/wire'
import type { Kysely, Selectable } from 'kysely'
import type {
  MailboxCounters,
  StoredVoiceMessage,
  VoiceMessageDraft,
} from '../../platform/voicemail/voice-message.js'
import type { VoicemailStore } from '../../platform/voicemail/voicemail-store.js'
import type { VoicemailDatabase, VoicemailMessageTable } from './database.js'

/** Every column but the audio: what listings read. */
const LISTED = [
  'voicemail_id',
  'login_name',
  'from_party',
  'deposited_at',
  'duration',
  'unread',
  'high_priority',
  'audio_bytes',
] as const

type ListedRow = Pick<Selectable<VoicemailMessageTable>, (typeof LISTED)[number]>

export class SqlVoicemailStore implements VoicemailStore {
  /** Uses `db` (from `voicemailTables`) without owning it: whoever opened it closes it. */
  constructor(private readonly db: Kysely<VoicemailDatabase>) {}

  async add(draft: VoiceMessageDraft): Promise<StoredVoiceMessage> {
    const { audio, ...fields } = draft
    await this.db
      .insertInto('voicemail_message')
      .values({
        voicemail_id: fields.voicemailId,
        login_name: fields.loginName,
        from_party: JSON.stringify(fields.from),
        deposited_at: fields.depositedAt,
        duration: fields.duration,
        unread: fields.unread ? 1 : 0,
        high_priority: fields.highPriority ? 1 : 0,
        audio_bytes: audio.byteLength,
        audio: Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength),
      })
      .execute()
    return { ...fields, audioBytes: audio.byteLength }
  }

  async list(
    loginName: string,
    query: { newOnly: boolean; offset: number; limit: number },
  ): Promise<StoredVoiceMessage[]> {
    let select = this.db
      .selectFrom('voicemail_message')
      .select(LISTED)
      .where('login_name', '=', loginName)
    if (query.newOnly) select = select.where('unread', '=', 1)
    const rows = await select
      .orderBy('deposited_at', 'desc')
      .orderBy('voicemail_id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute()
    return rows.map(messageOf)
  }

  async find(loginName: string, voicemailId: string): Promise<StoredVoiceMessage | undefined> {
    const row = await this.db
      .selectFrom('voicemail_message')
      .select(LISTED)
      .where('login_name', '=', loginName)
      .where('voicemail_id', '=', voicemailId)
      .executeTakeFirst()
    return row === undefined ? undefined : messageOf(row)
  }

  async audio(loginName: string, voicemailId: string): Promise<Uint8Array | undefined> {
    const row = await this.db
      .selectFrom('voicemail_message')
      .select('audio')
      .where('login_name', '=', loginName)
      .where('voicemail_id', '=', voicemailId)
      .executeTakeFirst()
    return row === undefined ? undefined : new Uint8Array(row.audio)
  }

  async markRead(loginName: string, voicemailId: string): Promise<StoredVoiceMessage | undefined> {
    const result = await this.db
      .updateTable('voicemail_message')
      .set({ unread: 0 })
      .where('login_name', '=', loginName)
      .where('voicemail_id', '=', voicemailId)
      .where('unread', '=', 1)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0) return undefined
    return this.find(loginName, voicemailId)
  }

  async delete(loginName: string, voicemailIds: readonly string[]): Promise<StoredVoiceMessage[]> {
    if (voicemailIds.length === 0) return []
    // The messages this DELETE removed: one deleted by another node at the same moment is told by that node alone.
    const rows = await this.db
      .deleteFrom('voicemail_message')
      .where('login_name', '=', loginName)
      .where('voicemail_id', 'in', [...voicemailIds])
      .returning(LISTED)
      .execute()
    return rows.map(messageOf)
  }

  async counters(loginName: string): Promise<MailboxCounters> {
    const row = await this.db
      .selectFrom('voicemail_message')
      .select((eb) => [
        eb.fn.countAll().as('total'),
        eb.fn.sum('unread').as('unread'),
        eb.fn.sum('audio_bytes').as('bytes'),
      ])
      .where('login_name', '=', loginName)
      .executeTakeFirstOrThrow()
    return {
      total: Number(row.total),
      unread: Number(row.unread ?? 0),
      bytes: Number(row.bytes ?? 0),
    }
  }
}

function messageOf(row: ListedRow): StoredVoiceMessage {
  return {
    voicemailId: row.voicemail_id,
    loginName: row.login_name,
    from: JSON.parse(row.from_party) as PartyInfo,
    depositedAt: Number(row.deposited_at),
    duration: row.duration,
    unread: row.unread === 1,
    highPriority: row.high_priority === 1,
    audioBytes: row.audio_bytes,
  }
}
