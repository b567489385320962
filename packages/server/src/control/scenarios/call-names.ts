/**
 * The names of a run's calls: callRefs differ from run to run, so a scenario names calls where it places them
 * (`call: c1`) and the result shows names, never callRefs. A call the script did not name (placed by the
 * engine, or by someone else) is named `#1`, `#2`... in the order the run first sees it.
 */
export class CallNames {
  readonly #refs = new Map<string, string>()
  readonly #names = new Map<string, string>()
  #unnamed = 0

  /** Gives `callRef` the name `name` (a step placed it), instead of a `#n` it may have had. */
  name(name: string, callRef: string): void {
    const previous = this.#names.get(callRef)
    if (previous?.startsWith('#')) this.#refs.delete(previous)
    this.#refs.set(name, callRef)
    this.#names.set(callRef, name)
  }

  /** The callRef of the call named `name`, once placed. */
  refOf(name: string): string | undefined {
    return this.#refs.get(name)
  }

  /** The name of `callRef`, giving it the next `#n` when it has none. */
  nameOf(callRef: string): string {
    let name = this.#names.get(callRef)
    if (name === undefined) {
      name = `#${++this.#unnamed}`
      this.name(name, callRef)
    }
    return name
  }

  /** Every name with its callRef, in the order given. */
  entries(): Record<string, string> {
    return Object.fromEntries(this.#refs)
  }
}
