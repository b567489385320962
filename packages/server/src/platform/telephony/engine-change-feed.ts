/**
 * The port of the engine's stored batches every node's replica follows (docs/cluster-engine.md, "The engine on
 * every node").
 */

/**
 * What one stored batch of the call engine wrote, as the owner publishes it for the replicas of the other
 * nodes (docs/cluster-engine.md, "The replica"): the records already encoded as the CallStore stores them.
 */
export interface EngineBatch {
  /** The batch's number: one more than the batch stored before it, whichever owner stored that. */
  batch: number
  /** The epoch of the owner that stored it (EngineOwnership.epoch). */
  epoch: number
  /** `[callRef, json]` of the calls added or changed. */
  calls: ReadonlyArray<readonly [callRef: string, json: string]>
  removedCalls: readonly string[]
  /** Whether the devices below replace every device (the first batch of a state). */
  replaceDevices: boolean
  /** `[deviceId, json]` of the devices added or changed. */
  devices: ReadonlyArray<readonly [deviceId: string, json: string]>
  removedDevices: readonly string[]
  /** The rest of the state (sequence, timers, callbacks...) without the batch number, when it changed. */
  rest?: string
}

/** Batches read from the feed: in order, and whether some after the position read from are missing. */
export interface EngineBatchPage {
  batches: EngineBatch[]
  /**
   * True when the batch right after the position read from is not in the feed (trimmed, or never published)
   * while later ones are: the reader is to load the state anew from the store.
   */
  missing: boolean
}

/** One follower of the feed, until it is closed. */
export interface EngineFeedFollower {
  /** Stops following; resolves once no page will be handed any more. */
  close(): Promise<void>
}

/**
 * The engine's change feed (docs/cluster-engine.md, "The replica"): the engine's owner publishes each batch once
 * it is stored; the other nodes follow the batches, in order, to keep a replica of the engine's state. The feed
 * holds a bounded number of the latest batches; a follower that fell behind them loads the state anew.
 */
export interface EngineChangeFeed {
  /**
   * Adds a stored batch after those published. A batch numbered at or below the last one published starts a
   * new history (the feed forgets the batches it held) unless an owner of a greater epoch published that
   * last one: then it is a late batch of an older owner, and is dropped. Resolves once the feed holds it.
   * `onQueued`, when given, is called once whatever this node appends to the subscriptions' event logs from
   * then on is applied after the entry (docs/cluster-engine.md, "Nothing is told before the feed has it"): on
   * Redis as soon as the entry's command is sent, on the connection the logs' appends share, which Redis runs in
   * order; on memory once the entry is held. A feed that does not call it leaves its caller to wait for the
   * promise.
   */
  publish(batch: EngineBatch, onQueued?: () => void): Promise<void>
  /** At most `max` (at least 1) of the batches after the number `after`, oldest first. */
  read(after: number, max: number): Promise<EngineBatchPage>
  /**
   * Hands `onPage` the batches after `after` as they are published (at once those already held), page after
   * page, each awaited before the next is read; nothing polls. `onPage` answers the number to go on after:
   * the last batch it applied, or another number when it loaded the state anew. `onPage` does not reject:
   * a follower whose `onPage` rejected follows no more.
   */
  follow(
    after: number,
    onPage: (page: EngineBatchPage) => Promise<number>,
  ): Promise<EngineFeedFollower>
}
