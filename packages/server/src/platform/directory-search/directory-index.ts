/**
 * The index directory searches run on, not a scan: per attribute (last name, first name, phone numbers,
 * login), keys without accents or case in sorted arrays (prefix, equality, suffix by binary search) and
 * trigram postings (substrings); see field-index.ts and docs/directory-search.md. It follows the directory:
 * the Directory tells it of every account it indexes or forgets (Directory.watch).
 */
import type { DirectoryContact, SearchField } from '@openness/wire'
import type { StoredAccount, UserAccount } from '../directory/account.js'
import { vcardPathOf } from '../directory/vcard-path.js'
import type { Criterion, CriterionLeaf } from './criterion.js'
import { FieldIndex, type Lookup } from './field-index.js'
import { searchKey } from './search-key.js'

interface Entry {
  loginName: string
  /** The last name's key: results are ordered by it first. */
  lastKey: string
  /** Last name, first name, login: the order of results. */
  order: string
  contact: DirectoryContact
}

export class DirectoryIndex {
  private readonly entries = new Map<number, Entry>()
  private readonly slotByLogin = new Map<string, number>()
  private readonly fields: Record<SearchField, FieldIndex>
  private nextSlot = 0

  /** Indexes the users among `accounts` (administrators are not in the phone book). */
  constructor(accounts: Iterable<StoredAccount>) {
    const keyed: [number, Record<SearchField, string[]>][] = []
    for (const account of accounts) {
      if (account.kind !== 'USER') continue
      keyed.push([this.enter(account), keysOf(account)])
    }
    const build = (field: SearchField) =>
      FieldIndex.of(keyed.map(([slot, keys]) => [slot, keys[field]] as const))
    this.fields = {
      lastName: build('lastName'),
      firstName: build('firstName'),
      'id.phoneNumber': build('id.phoneNumber'),
      'id.loginName': build('id.loginName'),
    }
  }

  /** How many users are indexed. */
  get size(): number {
    return this.entries.size
  }

  /** Indexes an account as it now is (an administrator, or a user no longer, is forgotten). */
  put(account: StoredAccount): void {
    if (account.kind !== 'USER') {
      this.drop(account.loginName)
      return
    }
    const keys = keysOf(account)
    const known = this.slotByLogin.get(account.loginName)
    // Stored again with the same keys (an import's completion re-indexes every account): no splice.
    if (known !== undefined && this.hasKeys(known, keys)) {
      this.entries.set(known, this.entryOf(account))
      return
    }
    this.drop(account.loginName)
    const slot = this.enter(account)
    for (const field of Object.keys(this.fields) as SearchField[])
      this.fields[field].add(slot, keys[field])
  }

  /** Forgets the account `loginName`. */
  drop(loginName: string): void {
    const slot = this.slotByLogin.get(loginName)
    if (slot === undefined) return
    this.slotByLogin.delete(loginName)
    this.entries.delete(slot)
    for (const index of Object.values(this.fields)) index.remove(slot)
  }

  /** The first `limit` contacts matching `criterion`, by last name, first name and login. */
  search(criterion: Criterion, limit: number): DirectoryContact[] {
    const best: Entry[] = []
    const seen = new Set<number>()
    const plan = this.plan(criterion)
    for (const slot of plan.slots()) {
      if (seen.has(slot)) continue
      seen.add(slot)
      const entry = this.entries.get(slot)
      if (entry === undefined) continue
      // Slots in last-name order: once the list is full, a later last name can no longer enter it.
      if (
        plan.byLastName &&
        best.length === limit &&
        entry.lastKey > (best[limit - 1] as Entry).lastKey
      )
        break
      keepBest(best, entry, limit)
    }
    return best.map((entry) => entry.contact)
  }

  /**
   * The lookup of a criterion: a leaf's own; an OR node's lookups chained; an AND node's cheapest
   * lookup, each slot then checked against the other operands.
   */
  private plan(criterion: Criterion): Lookup & { byLastName?: boolean } {
    if (criterion.kind === 'leaf') {
      const lookup = this.lookup(criterion)
      return { ...lookup, byLastName: criterion.field === 'lastName' && lookup.inKeyOrder === true }
    }
    const lookups: (Lookup & { byLastName?: boolean })[] = criterion.operands.map((operand) =>
      this.plan(operand),
    )
    if (criterion.operation === 'OR')
      return {
        estimate: lookups.reduce((sum, lookup) => sum + lookup.estimate, 0),
        *slots() {
          for (const lookup of lookups) yield* lookup.slots()
        },
      }
    let cheapest = 0
    lookups.forEach((lookup, at) => {
      if (lookup.estimate < (lookups[cheapest] as Lookup).estimate) cheapest = at
    })
    const others = criterion.operands.filter((_, at) => at !== cheapest)
    const driver = lookups[cheapest] as Lookup & { byLastName?: boolean }
    const matches = (slot: number) => others.every((operand) => this.test(operand, slot))
    return {
      estimate: driver.estimate,
      byLastName: driver.byLastName === true,
      *slots() {
        for (const slot of driver.slots()) if (matches(slot)) yield slot
      },
    }
  }

  private lookup(leaf: CriterionLeaf): Lookup {
    const index = this.fields[leaf.field]
    switch (leaf.operation) {
      case 'EQUAL_IGNORE_CASE':
        return index.equal(leaf.key)
      case 'BEGIN_WITH':
        return index.prefix(leaf.key)
      case 'END_WITH':
        return index.suffix(leaf.key)
      case 'CONTAIN':
        return index.contain(leaf.key)
    }
  }

  /** Whether the user in `slot` matches `criterion` (the check of an AND node's other operands). */
  private test(criterion: Criterion, slot: number): boolean {
    if (criterion.kind === 'node')
      return criterion.operation === 'AND'
        ? criterion.operands.every((operand) => this.test(operand, slot))
        : criterion.operands.some((operand) => this.test(operand, slot))
    return this.fields[criterion.field].keysOf(slot).some((value) => compares(criterion, value))
  }

  private enter(account: UserAccount): number {
    const slot = this.nextSlot++
    this.entries.set(slot, this.entryOf(account))
    this.slotByLogin.set(account.loginName, slot)
    return slot
  }

  private entryOf(account: UserAccount): Entry {
    const { record } = account
    const lastKey = searchKey('lastName', record.lastName ?? '')
    const order = [lastKey, searchKey('firstName', record.firstName ?? ''), account.loginName].join(
      '\u0000',
    )
    return { loginName: account.loginName, lastKey, order, contact: contactOf(account) }
  }

  private hasKeys(slot: number, keys: Record<SearchField, string[]>): boolean {
    return (Object.keys(this.fields) as SearchField[]).every((field) => {
      const known = this.fields[field].keysOf(slot)
      const now = keys[field]
      return known.length === now.length && known.every((key, at) => key === now[at])
    })
  }
}

/** Whether one key of the user satisfies the leaf. */
function compares(leaf: CriterionLeaf, value: string): boolean {
  switch (leaf.operation) {
    case 'EQUAL_IGNORE_CASE':
      return value === leaf.key
    case 'BEGIN_WITH':
      return value.startsWith(leaf.key)
    case 'END_WITH':
      return value.endsWith(leaf.key)
    case 'CONTAIN':
      return value.includes(leaf.key)
  }
}

/** Inserts `entry` into `best` (sorted, at most `limit` long) when it belongs there. */
function keepBest(best: Entry[], entry: Entry, limit: number): void {
  if (best.length === limit && entry.order >= (best[limit - 1] as Entry).order) return
  let low = 0
  let high = best.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((best[middle] as Entry).order <= entry.order) low = middle + 1
    else high = middle
  }
  best.splice(low, 0, entry)
  if (best.length > limit) best.pop()
}

/** The keys of each attribute of a user: phone numbers are the company phone and the devices' numbers. */
function keysOf(account: UserAccount): Record<SearchField, string[]> {
  const { record } = account
  const phones = new Set<string>()
  for (const number of [record.companyPhone, ...(record.devices ?? []).map((device) => device.id)])
    if (number) phones.add(searchKey('id.phoneNumber', number))
  const one = (field: SearchField, text: string | undefined) => {
    const key = text === undefined ? '' : searchKey(field, text)
    return key === '' ? [] : [key]
  }
  return {
    lastName: one('lastName', record.lastName),
    firstName: one('firstName', record.firstName),
    'id.phoneNumber': [...phones],
    'id.loginName': one('id.loginName', account.loginName),
  }
}

/**
 * The contact a search returns: the user's names, login and company phone (else its first device), and
 * its vCard path, relative to the vCard base URL of the locator service (docs/directory-search.md).
 */
function contactOf(account: UserAccount): DirectoryContact {
  const { record } = account
  const phoneNumber = record.companyPhone ?? record.devices?.[0]?.id
  return {
    id: { loginName: account.loginName, ...(phoneNumber && { phoneNumber }) },
    ...(record.firstName !== undefined && { firstName: record.firstName }),
    ...(record.lastName !== undefined && { lastName: record.lastName }),
    type: { main: 'USER' },
    vcardPath: vcardPathOf(account.loginName),
  }
}
