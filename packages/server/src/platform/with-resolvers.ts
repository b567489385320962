/** A promise and its resolver, made apart (Promise.withResolvers is newer than Node 20). */
export function withResolvers<T = void>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((settle) => {
    resolve = settle
  })
  return { promise, resolve }
}
