/**
 * A call's associated data (correlator data): bytes. The engine keeps them as text when they are UTF-8 text,
 * in hexadecimal otherwise, and a call shows them in both CallData fields it can (`associatedData` when they are
 * text, `hexaBinaryAssociatedData` always), so that every SDK reads the same bytes whichever field it reads:
 * Node takes `associatedData` first, Java reads only the hexadecimal one (its text field is misspelt
 * `associateData`: client census 3.5). docs/telephony-api.md, "Associated data".
 */

/** The associated data as the engine stores it: exactly one of the two. */
export type AssociatedData = { associatedData: string } | { hexaBinaryAssociatedData: string }

/** Where associated data may be stored (a call, a make call): at most one of the two fields. */
export interface AssociatedDataFields {
  associatedData?: string
  hexaBinaryAssociatedData?: string
}

/** The most bytes of associated data a call carries (ours: the specification gives no limit). */
export const MAX_ASSOCIATED_DATA_BYTES = 256

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The bytes as the engine stores them: their text when they are UTF-8, else their lower-case hexadecimal. */
export function storedAssociatedData(bytes: Uint8Array): AssociatedData {
  try {
    return { associatedData: utf8.decode(bytes) }
  } catch {
    return { hexaBinaryAssociatedData: hexOf(bytes) }
  }
}

/** The bytes of stored associated data. */
export function bytesOf(data: AssociatedDataFields): Uint8Array {
  if (data.associatedData !== undefined) return new TextEncoder().encode(data.associatedData)
  return bytesOfHex(data.hexaBinaryAssociatedData ?? '')
}

/** The CallData fields of stored associated data (none when there is none). */
export function shownAssociatedData(data: AssociatedDataFields): {
  associatedData?: string
  associateData?: string
  hexaBinaryAssociatedData?: string
} {
  // The Java SDK's CallData field is spelled `associateData` (its getCorrelatorData reads it first, then
  // hexaBinaryAssociatedData); the others read `associatedData`: both, the same text (docs/wire-compat.md).
  if (data.associatedData !== undefined)
    return {
      associatedData: data.associatedData,
      associateData: data.associatedData,
      hexaBinaryAssociatedData: hexOf(bytesOf(data)),
    }
  if (data.hexaBinaryAssociatedData !== undefined)
    return { hexaBinaryAssociatedData: data.hexaBinaryAssociatedData }
  return {}
}

/** True for pairs of hexadecimal digits (none included). */
export function isHex(text: string): boolean {
  return /^(?:[0-9a-fA-F]{2})*$/.test(text)
}

/** The bytes of pairs of hexadecimal digits (`isHex`). */
export function bytesOfHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2)
  for (let index = 0; index < bytes.length; index++)
    bytes[index] = Number.parseInt(hex.slice(2 * index, 2 * index + 2), 16)
  return bytes
}

/** The lower-case hexadecimal digits of bytes. */
export function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}
