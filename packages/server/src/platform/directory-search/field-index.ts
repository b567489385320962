/**
 * The index of one searchable attribute: its keys sorted (BEGIN_WITH, EQUAL_IGNORE_CASE), its reversed keys
 * sorted (END_WITH as a prefix of the reversed key), and trigram postings (CONTAIN of three characters or
 * more: the candidates of the operand's rarest trigram, then checked). A slot may have several keys (a
 * user's phone numbers).
 */
import { SortedKeys } from './sorted-keys.js'

/** The slots a lookup yields, and a cheap estimate of how many before yielding them. */
export interface Lookup {
  estimate: number
  slots(): Iterable<number>
  /** True when the slots come in the order of this attribute's keys (sorted-array lookups). */
  inKeyOrder?: boolean
}

export class FieldIndex {
  private forward = new SortedKeys()
  private backward = new SortedKeys()
  private readonly postings = new Map<string, number[]>()
  private readonly keysBySlot = new Map<number, readonly string[]>()

  /** Builds the index of many slots at once (two sorts). */
  static of(entries: Iterable<readonly [number, readonly string[]]>): FieldIndex {
    const index = new FieldIndex()
    const forward: [string, number][] = []
    const backward: [string, number][] = []
    for (const [slot, keys] of entries) {
      if (keys.length === 0) continue
      index.keysBySlot.set(slot, keys)
      for (const key of keys) {
        forward.push([key, slot])
        backward.push([reverse(key), slot])
      }
      for (const gram of trigramsOf(keys)) index.posting(gram).push(slot)
    }
    index.forward = SortedKeys.of(forward)
    index.backward = SortedKeys.of(backward)
    return index
  }

  /** The keys of `slot` (none when it has no value for this attribute). */
  keysOf(slot: number): readonly string[] {
    return this.keysBySlot.get(slot) ?? []
  }

  add(slot: number, keys: readonly string[]): void {
    this.remove(slot)
    if (keys.length === 0) return
    this.keysBySlot.set(slot, keys)
    for (const key of keys) {
      this.forward.add(key, slot)
      this.backward.add(reverse(key), slot)
    }
    for (const gram of trigramsOf(keys)) this.posting(gram).push(slot)
  }

  remove(slot: number): void {
    const keys = this.keysBySlot.get(slot)
    if (keys === undefined) return
    this.keysBySlot.delete(slot)
    for (const key of keys) {
      this.forward.remove(key, slot)
      this.backward.remove(reverse(key), slot)
    }
    for (const gram of trigramsOf(keys)) {
      const list = this.postings.get(gram)
      if (list === undefined) continue
      const at = list.indexOf(slot)
      if (at >= 0) list.splice(at, 1)
      if (list.length === 0) this.postings.delete(gram)
    }
  }

  equal(key: string): Lookup {
    return {
      estimate: this.forward.countPrefix(key),
      slots: () => this.forward.equalTo(key),
      inKeyOrder: true,
    }
  }

  prefix(key: string): Lookup {
    return {
      estimate: this.forward.countPrefix(key),
      slots: () => this.forward.withPrefix(key),
      inKeyOrder: true,
    }
  }

  suffix(key: string): Lookup {
    const reversed = reverse(key)
    return {
      estimate: this.backward.countPrefix(reversed),
      slots: () => this.backward.withPrefix(reversed),
    }
  }

  /**
   * CONTAIN: with three characters or more, the slots of the operand's rarest trigram, checked; shorter
   * operands have no trigram to narrow them, so every key is checked (they match much of the directory
   * anyway).
   */
  contain(key: string): Lookup {
    if (key.length < 3) {
      const forward = this.forward
      return {
        estimate: forward.size,
        *slots() {
          for (const [candidate, slot] of forward.entries()) if (candidate.includes(key)) yield slot
        },
      }
    }
    let rarest: number[] = []
    for (let at = 0; at + 3 <= key.length; at++) {
      const list = this.postings.get(key.slice(at, at + 3))
      if (list === undefined) return { estimate: 0, slots: () => [] }
      if (at === 0 || list.length < rarest.length) rarest = list
    }
    const candidates = rarest
    return {
      estimate: candidates.length,
      slots: () => candidates.filter((slot) => this.keysOf(slot).some((k) => k.includes(key))),
    }
  }

  private posting(gram: string): number[] {
    let list = this.postings.get(gram)
    if (list === undefined) {
      list = []
      this.postings.set(gram, list)
    }
    return list
  }
}

/** The distinct trigrams of a slot's keys (each slot is listed once per trigram). */
function trigramsOf(keys: readonly string[]): Set<string> {
  const grams = new Set<string>()
  for (const key of keys)
    for (let at = 0; at + 3 <= key.length; at++) grams.add(key.slice(at, at + 3))
  return grams
}

function reverse(key: string): string {
  return [...key].reverse().join('')
}
