/** The behaviour every MiniMessageStore adapter must show, run once per adapter by its test file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type {
  MiniMessageStore,
  StoredMiniMessage,
} from '../../src/platform/mini-messages/mini-message-store.js'

/** A fresh, empty store, and, for durable adapters, a way to open it again after close(). */
export interface MiniMessageStoreUnderTest {
  store: MiniMessageStore
  close(): Promise<void>
  reopen?: () => Promise<{ store: MiniMessageStore; close(): Promise<void> }>
  /** Another store over the same data that writes at the same moment (another node), where the adapter serves several. */
  concurrent?: () => Promise<{ store: MiniMessageStore; close(): Promise<void> }>
}

const T0 = Date.UTC(2026, 0, 1)

/** Message `id` to `loginName`, sent `second` seconds after T0 (several may share a second). */
function message(loginName: string, id: string, second = 0): StoredMiniMessage {
  return {
    messageId: id,
    loginName,
    sender: '1001',
    sentAt: T0 + second * 1000,
    text: `Émile 東京 ${id} 👋`,
  }
}

export function miniMessageStoreConformance(
  label: string,
  open: () => Promise<MiniMessageStoreUnderTest>,
): void {
  describe(label, () => {
    let subject: MiniMessageStoreUnderTest
    let store: MiniMessageStore
    beforeEach(async () => {
      subject = await open()
      store = subject.store
    })
    afterEach(async () => {
      await subject.close()
    })

    it('an empty queue takes, lists and counts nothing', async () => {
      expect(await store.take('bob')).toBeUndefined()
      expect(await store.list('bob')).toEqual([])
      expect(await store.count('bob')).toBe(0)
    })

    it('takes the most recent first, each once, whatever their times (LIFO)', async () => {
      // Sent in the same second, and one with an earlier time (a clock set back): the order is the queue's.
      for (const [id, second] of [
        ['m1', 5],
        ['m2', 5],
        ['m3', 1],
      ] as const)
        expect((await store.push(message('bob', id, second), 10)).queued).toBe(true)
      expect((await store.list('bob')).map((held) => held.messageId)).toEqual(['m3', 'm2', 'm1'])
      expect(await store.take('bob')).toEqual(message('bob', 'm3', 1))
      expect(await store.count('bob')).toBe(2)
      expect((await store.take('bob'))?.messageId).toBe('m2')
      expect((await store.push(message('bob', 'm4', 6), 10)).unread).toBe(2)
      expect((await store.take('bob'))?.messageId).toBe('m4')
      expect((await store.take('bob'))?.messageId).toBe('m1')
      expect(await store.take('bob')).toBeUndefined()
    })

    it("keeps each user's queue apart", async () => {
      await store.push(message('bob', 'b1'), 10)
      await store.push(message('alice', 'a1'), 10)
      await store.push(message('bob', 'b2'), 10)
      expect(await store.count('bob')).toBe(2)
      expect((await store.take('alice'))?.messageId).toBe('a1')
      expect(await store.take('alice')).toBeUndefined()
      expect((await store.list('bob')).map((held) => held.messageId)).toEqual(['b2', 'b1'])
    })

    it('refuses a push to a full queue, changing nothing, and takes one again once a message is read', async () => {
      for (const id of ['m1', 'm2', 'm3']) await store.push(message('bob', id), 3)
      expect(await store.push(message('bob', 'm4'), 3)).toEqual({ queued: false, unread: 3 })
      expect((await store.list('bob')).map((held) => held.messageId)).toEqual(['m3', 'm2', 'm1'])
      await store.take('bob')
      expect(await store.push(message('bob', 'm4'), 3)).toEqual({ queued: true, unread: 3 })
      expect((await store.take('bob'))?.messageId).toBe('m4')
    })

    it('queues a message once: a push of an id already queued counts as done', async () => {
      expect(await store.push(message('bob', 'm1'), 10)).toEqual({ queued: true, unread: 1 })
      expect(await store.push(message('bob', 'm1'), 10)).toEqual({ queued: true, unread: 1 })
      // Even to a full queue: the retry of a request that got in.
      expect(await store.push(message('bob', 'm1'), 1)).toEqual({ queued: true, unread: 1 })
      expect(await store.count('bob')).toBe(1)
    })

    it('list leaves the queue as it was; a taken message is gone from it', async () => {
      await store.push(message('bob', 'm1'), 10)
      await store.list('bob')
      expect(await store.count('bob')).toBe(1)
      await store.take('bob')
      expect(await store.list('bob')).toEqual([])
    })

    it('two writers at once: the queue never passes its bound, and each message is taken once', async (context) => {
      const other = await subject.concurrent?.()
      if (other === undefined) return context.skip('the adapter serves one writer at a time')
      try {
        const stores = [store, other.store]
        const pushes = await Promise.all(
          Array.from({ length: 10 }, (_, index) =>
            stores[index % 2]?.push(message('bob', `m${index}`), 6),
          ),
        )
        expect(pushes.filter((outcome) => outcome?.queued)).toHaveLength(6)
        expect(await store.count('bob')).toBe(6)
        const taken = await Promise.all(
          Array.from({ length: 8 }, (_, index) => stores[index % 2]?.take('bob')),
        )
        const ids = taken.flatMap((held) => (held === undefined ? [] : [held.messageId]))
        expect(ids).toHaveLength(6)
        expect(new Set(ids).size).toBe(6)
        expect(await store.count('bob')).toBe(0)
      } finally {
        await other.close()
      }
    })

    it('messages survive a reopen', async () => {
      if (subject.reopen === undefined) return
      await store.push(message('bob', 'm1', 3), 10)
      await store.push(message('bob', 'm2', 4), 10)
      await subject.close()
      subject = { ...(await subject.reopen()), reopen: subject.reopen }
      store = subject.store
      expect(await store.list('bob')).toEqual([message('bob', 'm2', 4), message('bob', 'm1', 3)])
    })
  })
}
