/** The behaviour every VoicemailStore adapter must show, run once per adapter by its test file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { VoiceMessageDraft } from '../../src/platform/voicemail/voice-message.js'
import type { VoicemailStore } from '../../src/platform/voicemail/voicemail-store.js'

/** A fresh, empty store, and, for durable adapters, a way to open it again after close(). */
export interface VoicemailStoreUnderTest {
  store: VoicemailStore
  close(): Promise<void>
  reopen?: () => Promise<{ store: VoicemailStore; close(): Promise<void> }>
  /** Another store over the same data that writes at the same moment (another node), where the adapter serves several. */
  concurrent?: () => Promise<{ store: VoicemailStore; close(): Promise<void> }>
}

const T0 = Date.UTC(2026, 0, 1)

/** A message of `loginName` left `minute` minutes after T0, with `size` bytes of audio. */
function draft(loginName: string, id: string, minute: number, size = 4): VoiceMessageDraft {
  return {
    voicemailId: id,
    loginName,
    from: { id: { loginName: 'alice', phoneNumber: '1001' }, firstName: 'Émile 東京' },
    depositedAt: T0 + minute * 60_000,
    duration: minute + 1,
    unread: true,
    highPriority: minute === 2,
    audio: Uint8Array.from({ length: size }, (_, index) => (index * 37 + minute) % 256),
  }
}

export function voicemailStoreConformance(
  label: string,
  open: () => Promise<VoicemailStoreUnderTest>,
): void {
  describe(label, () => {
    let subject: VoicemailStoreUnderTest
    let store: VoicemailStore
    beforeEach(async () => {
      subject = await open()
      store = subject.store
    })
    afterEach(async () => {
      await subject.close()
    })

    it('an empty mailbox lists nothing and counts zero', async () => {
      expect(await store.list('bob', { newOnly: false, offset: 0, limit: 10 })).toEqual([])
      expect(await store.counters('bob')).toEqual({ total: 0, unread: 0, bytes: 0 })
      expect(await store.find('bob', 'nope')).toBeUndefined()
      expect(await store.audio('bob', 'nope')).toBeUndefined()
    })

    it('add returns the message without audio, with its size; find and audio read it back', async () => {
      const message = draft('bob', 'm1', 0, 300)
      const { audio, ...fields } = message
      expect(await store.add(message)).toEqual({ ...fields, audioBytes: 300 })
      expect(await store.find('bob', 'm1')).toEqual({ ...fields, audioBytes: 300 })
      expect(Array.from((await store.audio('bob', 'm1')) ?? [])).toEqual(Array.from(audio))
    })

    it('lists newest first, pages with offset and limit, newOnly keeps the unread', async () => {
      for (const minute of [0, 1, 2, 3]) await store.add(draft('bob', `m${minute}`, minute))
      await store.add(draft('carol', 'c1', 5))
      const ids = async (query: { newOnly: boolean; offset: number; limit: number }) =>
        (await store.list('bob', query)).map((message) => message.voicemailId)
      expect(await ids({ newOnly: false, offset: 0, limit: 10 })).toEqual(['m3', 'm2', 'm1', 'm0'])
      expect(await ids({ newOnly: false, offset: 1, limit: 2 })).toEqual(['m2', 'm1'])
      await store.markRead('bob', 'm2')
      expect(await ids({ newOnly: true, offset: 0, limit: 10 })).toEqual(['m3', 'm1', 'm0'])
    })

    it('markRead changes an unread message once; another mailbox’s message is not found', async () => {
      await store.add(draft('bob', 'm1', 0))
      expect(await store.markRead('carol', 'm1')).toBeUndefined()
      expect((await store.find('bob', 'm1'))?.unread).toBe(true)
      expect(await store.markRead('bob', 'm1')).toMatchObject({ voicemailId: 'm1', unread: false })
      expect(await store.markRead('bob', 'm1')).toBeUndefined()
      expect(await store.counters('bob')).toEqual({ total: 1, unread: 0, bytes: 4 })
    })

    it('delete removes the mailbox’s messages among the ids only, and returns them', async () => {
      await store.add(draft('bob', 'm1', 0))
      await store.add(draft('bob', 'm2', 1))
      await store.add(draft('carol', 'c1', 2))
      const deleted = await store.delete('bob', ['m1', 'c1', 'unknown'])
      expect(deleted.map((message) => message.voicemailId)).toEqual(['m1'])
      expect(await store.find('carol', 'c1')).toBeDefined()
      expect(await store.delete('bob', [])).toEqual([])
      expect(await store.counters('bob')).toEqual({ total: 1, unread: 1, bytes: 4 })
    })

    it('returns a message that two writers delete at the same moment to one of them', async (context) => {
      const other = await subject.concurrent?.()
      if (other === undefined) return context.skip('the adapter serves one writer at a time')
      try {
        const ids = Array.from({ length: 12 }, (_, index) => `m${index}`)
        for (const [index, id] of ids.entries()) await store.add(draft('bob', id, index))
        const deleted = await Promise.all([
          store.delete('bob', ids),
          other.store.delete('bob', ids.slice(3)),
          store.delete('bob', ids.slice(0, 6)),
        ])
        expect(
          deleted
            .flat()
            .map((message) => message.voicemailId)
            .sort(),
        ).toEqual([...ids].sort())
      } finally {
        await other.close()
      }
    })

    it('counters sum the audio and count the unread of one mailbox', async () => {
      await store.add(draft('bob', 'm1', 0, 100))
      await store.add(draft('bob', 'm2', 1, 50))
      await store.add(draft('carol', 'c1', 2, 1000))
      await store.markRead('bob', 'm1')
      expect(await store.counters('bob')).toEqual({ total: 2, unread: 1, bytes: 150 })
    })

    it('messages survive a reopen', async () => {
      if (subject.reopen === undefined) return
      await store.add(draft('bob', 'm1', 0, 64))
      await store.markRead('bob', 'm1')
      await subject.close()
      subject = { ...(await subject.reopen()), reopen: subject.reopen }
      store = subject.store
      expect(await store.find('bob', 'm1')).toMatchObject({ unread: false, audioBytes: 64 })
      expect((await store.audio('bob', 'm1'))?.byteLength).toBe(64)
    })
  })
}
