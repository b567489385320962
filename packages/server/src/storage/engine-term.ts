/**
 * One term as owner of the call engine, as the lease adapters hand it out (SqlEngineLease on PostgreSQL,
 * SingleNodeEngineLease in the embedded mode): its epoch, whether it still holds, the promise that says when
 * it ended and why. The adapter ends it; `release` asks the adapter to give it up.
 */
import type { EngineOwnership, EngineOwnershipLoss } from '../platform/telephony/engine-lease.js'

export class EngineTerm implements EngineOwnership {
  readonly epoch: number
  readonly lost: Promise<EngineOwnershipLoss>
  #isHeld = true
  #resolveLost!: (loss: EngineOwnershipLoss) => void
  readonly #giveUp: (term: EngineTerm) => Promise<void>

  /** `giveUp` is how the adapter gives the term up; it ends the term with `released`. */
  constructor(epoch: number, giveUp: (term: EngineTerm) => Promise<void>) {
    this.epoch = epoch
    this.#giveUp = giveUp
    this.lost = new Promise((resolve) => {
      this.#resolveLost = resolve
    })
  }

  get isHeld(): boolean {
    return this.#isHeld
  }

  /** Gives the term up through the adapter; nothing happens when it ended already. */
  async release(): Promise<void> {
    if (this.#isHeld) await this.#giveUp(this)
  }

  /**
   * Ends the term with `loss` (the first end only counts): from now on it is not held, and `lost` resolves.
   * @internal for the adapters
   */
  end(loss: EngineOwnershipLoss): void {
    if (!this.#isHeld) return
    this.#isHeld = false
    this.#resolveLost(loss)
  }
}
