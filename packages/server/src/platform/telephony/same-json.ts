/**
 * Whether two JSON-like values have the same JSON text, without writing it: the engine compares the views
 * of every touched call before and after each step (call-events.ts), and writing two strings per comparison
 * was about 40 % of a call cycle's cost in profiles.
 */

type JsonObject = Readonly<Record<string, unknown>>

/**
 * True exactly when `JSON.stringify(a) === JSON.stringify(b)` for values made of strings, numbers, booleans,
 * null, arrays and plain objects. Like the JSON text, it tells apart objects whose keys come in a different
 * order, and ignores properties whose value is undefined, so that an event goes out in exactly the cases
 * where comparing the JSON did.
 *
 * @internal
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false
    return true
  }
  return sameObject(a as JsonObject, b as JsonObject)
}

/** Compares the properties JSON.stringify writes (those not undefined), in their order. */
function sameObject(a: JsonObject, b: JsonObject): boolean {
  const keys = Object.keys(a)
  const otherKeys = Object.keys(b)
  let i = 0
  let j = 0
  for (;;) {
    while (i < keys.length && a[keys[i] as string] === undefined) i++
    while (j < otherKeys.length && b[otherKeys[j] as string] === undefined) j++
    if (i === keys.length || j === otherKeys.length)
      return i === keys.length && j === otherKeys.length
    const key = keys[i] as string
    if (key !== otherKeys[j] || !sameJson(a[key], b[key])) return false
    i++
    j++
  }
}
