/** The PlatformHealthStore conformance suite (style guide 6): every adapter passes the same cases. */
import { expect, it } from 'vitest'
import type {
  PlatformHealth,
  PlatformHealthStore,
} from '../../src/platform/system/platform-health-store.js'

/** A store to test, and how to release it. */
export interface PlatformHealthStoreHandle {
  store: PlatformHealthStore
  /** A second store over the same data (another node of the cluster), where the adapter shares. */
  another?: () => Promise<PlatformHealthStore>
  close(): Promise<void>
}

const PBX_DOWN: PlatformHealth = { pbxLinkUp: false, ctiLinkUp: false, pbxLoaded: false }
const WARNED: PlatformHealth = {
  pbxLinkUp: true,
  ctiLinkUp: false,
  pbxLoaded: true,
  licenseWarning: {
    nbDays: -3,
    message: 'Licence expirée depuis 3 jours — ライセンス期限切れ 🔑 "quoted" \\ back',
    givenAt: 1_767_225_600_123,
  },
}

/** Stores `health` over whatever the store holds now. */
async function save(store: PlatformHealthStore, health: PlatformHealth): Promise<void> {
  if (!(await store.replace(await store.load(), health)))
    throw new Error('the health moved on under the test')
}

/**
 * Declares the cases, each on a fresh store from `create`, over data no other case shares; `shared` says
 * that the adapter's handles give `another` store over the same data (the cluster's adapters).
 */
export function platformHealthStoreConformance(
  create: () => Promise<PlatformHealthStoreHandle>,
  shared = false,
): void {
  async function withStore(
    run: (store: PlatformHealthStore, handle: PlatformHealthStoreHandle) => Promise<void>,
  ) {
    const handle = await create()
    try {
      await run(handle.store, handle)
    } finally {
      await handle.close()
    }
  }

  it('starts healthy: both links up, the users loaded, no license warning', () =>
    withStore(async (store) => {
      expect(await store.load()).toStrictEqual({
        pbxLinkUp: true,
        ctiLinkUp: true,
        pbxLoaded: true,
      })
    }))

  it('loads the health saved last, each save replacing the whole health', () =>
    withStore(async (store) => {
      await save(store, WARNED)
      expect(await store.load()).toStrictEqual(WARNED)
      await save(store, PBX_DOWN)
      expect(await store.load()).toStrictEqual(PBX_DOWN)
    }))

  it('keeps a license warning as given, unicode message and exact date included', () =>
    withStore(async (store) => {
      await save(store, WARNED)
      expect((await store.load()).licenseWarning).toStrictEqual(WARNED.licenseWarning)
    }))

  it('drops a withdrawn license warning: a health saved without one loads without one', () =>
    withStore(async (store) => {
      await save(store, WARNED)
      const { licenseWarning: _, ...withdrawn } = WARNED
      await save(store, withdrawn)
      expect(await store.load()).toStrictEqual(withdrawn)
      expect('licenseWarning' in (await store.load())).toBe(false)
    }))

  it.runIf(shared)('shows a health saved by one node to another over the same data', () =>
    withStore(async (store, handle) => {
      if (handle.another === undefined) throw new Error('A shared adapter gives another store')
      const other = await handle.another()
      expect(await other.load()).toStrictEqual(await store.load())
      await save(store, PBX_DOWN)
      expect(await other.load()).toStrictEqual(PBX_DOWN)
      await save(other, WARNED)
      expect(await store.load()).toStrictEqual(WARNED)
    }),
  )

  it('stores nothing over a health another writer changed since it was read, and says so', () =>
    withStore(async (store) => {
      const read = await store.load()
      await save(store, PBX_DOWN)
      expect(await store.replace(read, WARNED)).toBe(false)
      expect(await store.load()).toStrictEqual(PBX_DOWN)
      expect(await store.replace(await store.load(), WARNED)).toBe(true)
      expect(await store.load()).toStrictEqual(WARNED)
    }))

  it.runIf(shared)('lets one of two nodes that read the same health store its change', () =>
    withStore(async (store, handle) => {
      if (handle.another === undefined) throw new Error('A shared adapter gives another store')
      const other = await handle.another()
      const [mine, theirs] = [await store.load(), await other.load()]
      const outcomes = await Promise.all([
        store.replace(mine, PBX_DOWN),
        other.replace(theirs, WARNED),
      ])
      expect(outcomes.filter(Boolean)).toHaveLength(1)
      expect(await store.load()).toStrictEqual(outcomes[0] ? PBX_DOWN : WARNED)
    }),
  )

  it('keeps both links of 1,000 pairs of changes two writers plan on what they read, each read back', () =>
    withStore(async (store, handle) => {
      const other = shared && handle.another !== undefined ? await handle.another() : store
      /** Plans the change on what the writer reads; when the store refuses it, reads and plans again. */
      const write = async (writer: PlatformHealthStore, change: Partial<PlatformHealth>) => {
        for (;;) {
          const read = await writer.load()
          if (await writer.replace(read, { ...read, ...change })) return
        }
      }
      const wrong: string[] = []
      for (let pair = 0; pair < 1_000; pair += 1) {
        const up = pair % 2 === 0
        await write(store, { pbxLinkUp: up })
        await write(other, { ctiLinkUp: !up })
        for (const reader of [store, other]) {
          const health = await reader.load()
          if (health.pbxLinkUp !== up || health.ctiLinkUp !== !up) wrong.push(`pair ${pair}`)
        }
      }
      expect(wrong).toEqual([])
    }))
}
