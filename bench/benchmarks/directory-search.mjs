// Directory search on a large directory: 100,000 generated users (names with accents, two phone numbers
// each) indexed as the service indexes them (DirectoryIndex), searched through DirectorySearchService as
// POST then GET /directory/search run it, in process: a search started and its first batch polled, for
// a random two- or three-letter prefix of a last name, and for a random three-letter substring of a
// first or last name (CONTAIN). Reports each one's p99 over the round's searches, and notes the time and
// memory the index took to build. No baseline: the search's own latency is the figure
// (docs/directory-search.md).

import { SystemClock } from '../../packages/server/dist/clock/system-clock.js'
import { DirectoryIndex } from '../../packages/server/dist/platform/directory-search/directory-index.js'
import { DirectorySearchService } from '../../packages/server/dist/platform/directory-search/directory-search-service.js'
import { MemorySearchContextStore } from '../../packages/server/dist/storage/memory/memory-search-context-store.js'
import { latencySummary } from '../lib/stats.mjs'

const SYLLABLES = [
  'ma',
  'ber',
  'lé',
  'ro',
  'du',
  'gar',
  'ni',
  'mer',
  'cier',
  'fon',
  'tè',
  'ne',
  'pe',
  'tit',
  'bon',
  'nat',
  'gi',
  'rard',
  'mo',
  'reau',
  'lam',
  'ché',
  'vin',
  'sa',
  'ux',
  'dé',
  'court',
  'ri',
]
const FIRST_NAMES = [
  'Alice',
  'Bob',
  'Gaëlle',
  'Inès',
  'Léa',
  'Chloé',
  'Zoé',
  'Hélène',
  'Jérôme',
  'François',
  'Noël',
  'Anaïs',
  'Émile',
  'Julien',
  'Karim',
  'Marc',
  'Sophie',
  'Thomas',
  'Camille',
  'Lucas',
]

export default {
  name: 'directory-search',
  title: 'Directory search: start and first batch among 100,000 users (in process)',
  order: 75,
  timeoutS: 300,
  baseline: undefined,
  figures: [
    {
      key: 'prefix',
      label: 'last name BEGIN_WITH 2–3 letters: start + first batch, p99',
      unit: 'ms',
      target: { on: 'median', op: '<', value: 20, text: '< 20 ms' },
    },
    {
      key: 'contain',
      label: 'first or last name CONTAIN 3 letters: start + first batch, p99',
      unit: 'ms',
    },
  ],
  async run(ctx) {
    const count = ctx.scale(100_000, 2_000)
    const random = seeded(42)
    const accounts = Array.from({ length: count }, (_, at) => account(at, random))
    const heap = process.memoryUsage().heapUsed
    const building = performance.now()
    const index = new DirectoryIndex(accounts)
    ctx.note(
      `${count.toLocaleString('en')} users indexed in ${((performance.now() - building) / 1000).toFixed(2)} s, ` +
        `about ${Math.round((process.memoryUsage().heapUsed - heap) / 1e6)} MB of heap`,
    )
    const service = new DirectorySearchService(
      index,
      new MemorySearchContextStore(),
      new SystemClock(),
    )
    const lastNames = accounts.map((user) => user.record.lastName)
    const names = accounts.flatMap((user) => [user.record.lastName, user.record.firstName])
    const searches = ctx.scale(2_000, 50)
    const timed = async (filterOf) => {
      const latencies = []
      for (let i = 0; i < searches; i++) {
        const owner = { sessionId: `s${i % 100}`, loginName: `user${i % 100}` }
        const filter = filterOf()
        const start = performance.now()
        await service.start(owner, filter)
        const first = await service.poll(owner)
        latencies.push(performance.now() - start)
        if (first.resultCode !== 'OK' && first.resultCode !== 'FINISH')
          throw new Error(`unexpected ${first.resultCode}`)
        await service.cancel(owner)
      }
      return latencySummary(latencies).p99
    }
    const pick = (list) => list[Math.floor(random() * list.length)]
    const slice = (text, length, from = 0) => text.slice(from, from + length)
    await ctx.interleave(
      {
        prefix: async () => ({
          prefix: await timed(() => ({
            field: 'lastName',
            operation: 'BEGIN_WITH',
            operand: slice(pick(lastNames), 2 + Math.floor(random() * 2)),
          })),
        }),
        contain: async () => ({
          contain: await timed(() => {
            const name = pick(names)
            const from = Math.floor(random() * Math.max(1, name.length - 3))
            const field = random() < 0.5 ? 'lastName' : 'firstName'
            return { field, operation: 'CONTAIN', operand: slice(name, 3, from) }
          }),
        }),
      },
      { rounds: ctx.rounds(5), warmup: ctx.scale(1, 0) },
    )
    ctx.usedGenerator('in process')
  },
}

/** A user as the directory holds it: what the index reads. */
function account(at, random) {
  const syllables = 2 + Math.floor(random() * 3)
  let lastName = ''
  for (let i = 0; i < syllables; i++) lastName += SYLLABLES[Math.floor(random() * SYLLABLES.length)]
  lastName = lastName.charAt(0).toUpperCase() + lastName.slice(1)
  const firstName = FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)]
  const loginName = `user${at}`
  const extension = String(100_000 + at)
  return {
    kind: 'USER',
    loginName,
    preferences: {},
    record: {
      loginName,
      firstName,
      lastName,
      companyPhone: extension,
      devices: [
        { id: extension, type: 'DESKPHONE' },
        { id: `+3361${extension}`, type: 'MOBILE' },
      ],
    },
  }
}

/** A small deterministic generator (mulberry32), so that every run searches the same directory. */
function seeded(seed) {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
