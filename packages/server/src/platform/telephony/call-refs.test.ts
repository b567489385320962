/**
 * callRefs made ahead (call-refs.ts) are the ones made one at a time: the same key and number give the same
 * callRef whatever was asked before, so that stored calls, replicas and a new owner agree with every version.
 */
import { describe, expect, it } from 'vitest'
import { callRefOf } from './call-refs.js'

const KEY = '5ca1ab1e'.repeat(8)

/** callRefs as the permutation made them one at a time, eight cipher calls each, before they were made ahead. */
const KNOWN: readonly (readonly [number, string])[] = [
  [1, 'e6dacf524650b656'],
  [2, '0dc1fab23bd7ce68'],
  [3, '1cc5915edf1329e6'],
  [64, '4fa2d292ef6c8422'],
  [65, '5ad25a8f1a093204'],
  [1000, '7d4d83189986fa0c'],
  [2 ** 32 - 1, '7461f5bad0816041'],
  [2 ** 32, '25a5d20be0d99d8e'],
  [2 ** 53 - 1, 'ddd00892f6f512df'],
]

describe('callRefOf, made ahead', () => {
  it('gives the callRefs made one at a time, asked in order or backwards', () => {
    for (const [serial, callRef] of KNOWN) expect(callRefOf(KEY, serial)).toBe(callRef)
    for (const [serial, callRef] of [...KNOWN].reverse())
      expect(callRefOf(KEY, serial)).toBe(callRef)
  })

  it('gives the same callRefs when another key was asked in between', () => {
    const [serial, callRef] = KNOWN[4] as readonly [number, string]
    callRefOf(KEY, serial - 1)
    const other = callRefOf('00'.repeat(32), serial)
    expect(other).not.toBe(callRef)
    expect(callRefOf(KEY, serial)).toBe(callRef)
  })

  it('gives each of a run of serials the callRef it gets alone', () => {
    const inOrder = Array.from({ length: 200 }, (_, index) => callRefOf(KEY, 500 + index))
    const alone = inOrder.map((_, index) => {
      // A serial far away first, so that the next is made in a pass of its own.
      callRefOf(KEY, 10_000_000 + index)
      return callRefOf(KEY, 500 + index)
    })
    expect(alone).toStrictEqual(inOrder)
  })
})
