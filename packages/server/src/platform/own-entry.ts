/**
 * The entry of a record of the engine's state by a key a request gave: `undefined` unless the record has it as
 * its own, so that a key such as `toString` or `constructor` never finds what every object inherits.
 */
export function ownEntry<T>(
  record: Readonly<Record<string, T>> | undefined,
  key: string,
): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined
}
