/**
 * A sorted list of (key, slot) entries: prefix and exact lookups by binary search, kept sorted on insert
 * and delete (a splice: a memory move, cheap next to a directory change). One per field of the directory
 * index, and one more of the reversed keys for END_WITH.
 */
export class SortedKeys {
  private readonly keys: string[] = []
  private readonly slots: number[] = []

  /** Builds the list from unsorted entries at once (a start or an import: one sort, not n splices). */
  static of(entries: readonly (readonly [string, number])[]): SortedKeys {
    const sorted = [...entries].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x - y))
    const list = new SortedKeys()
    for (const [key, slot] of sorted) {
      list.keys.push(key)
      list.slots.push(slot)
    }
    return list
  }

  get size(): number {
    return this.keys.length
  }

  add(key: string, slot: number): void {
    const at = this.lowerBound(key, slot)
    this.keys.splice(at, 0, key)
    this.slots.splice(at, 0, slot)
  }

  remove(key: string, slot: number): void {
    const at = this.lowerBound(key, slot)
    if (this.keys[at] === key && this.slots[at] === slot) {
      this.keys.splice(at, 1)
      this.slots.splice(at, 1)
    }
  }

  /** Slots of the keys starting with `prefix`, in key order. */
  *withPrefix(prefix: string): Generator<number> {
    for (let at = this.lowerBound(prefix, -1); at < this.keys.length; at++) {
      if (!(this.keys[at] as string).startsWith(prefix)) return
      yield this.slots[at] as number
    }
  }

  /** Slots of the keys equal to `key`. */
  *equalTo(key: string): Generator<number> {
    for (let at = this.lowerBound(key, -1); at < this.keys.length && this.keys[at] === key; at++)
      yield this.slots[at] as number
  }

  /** How many keys start with `prefix` (two binary searches: the planner's estimate). */
  countPrefix(prefix: string): number {
    const from = this.lowerBound(prefix, -1)
    let low = from
    let high = this.keys.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((this.keys[middle] as string).startsWith(prefix)) low = middle + 1
      else high = middle
    }
    return low - from
  }

  /** Every (key, slot) entry, for the scans of short substrings. */
  *entries(): Generator<[string, number]> {
    for (let at = 0; at < this.keys.length; at++)
      yield [this.keys[at] as string, this.slots[at] as number]
  }

  /** The first position whose entry is not below (key, slot). */
  private lowerBound(key: string, slot: number): number {
    let low = 0
    let high = this.keys.length
    while (low < high) {
      const middle = (low + high) >>> 1
      const at = this.keys[middle] as string
      if (at < key || (at === key && (this.slots[middle] as number) < slot)) low = middle + 1
      else high = middle
    }
    return low
  }
}
