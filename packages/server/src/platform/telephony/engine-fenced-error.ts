/**
 * The refusal of a save of the call engine's state by a node whose term as engine owner ended
 * (docs/cluster-engine.md, "Engine lease and fencing"): another node owns the engine, or this one knows it no
 * longer does. Nothing of the save was written. The engine that meets it stops: its state is no longer the one
 * stored.
 */
export class EngineFencedError extends Error {
  override readonly name = 'EngineFencedError'

  /**
   * @param epoch the epoch the save was made under; undefined when the node knew it no longer owned the engine
   * @param current the epoch of the current owner's term, when the store read it
   */
  constructor(
    readonly epoch: number | undefined,
    readonly current?: number,
  ) {
    super(
      epoch === undefined
        ? "The call engine's state was not stored: this node no longer owns the engine"
        : `The call engine's state was not stored: epoch ${epoch} is no longer the owner's` +
            (current === undefined ? '' : ` (the current epoch is ${current})`),
    )
  }
}
