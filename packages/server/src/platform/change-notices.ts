/**
 * How the nodes of a cluster keep the copies of durable state they hold in memory true (docs/cluster.md, "What
 * each node keeps in memory", "Writes across nodes"): revisions of stored records and change notices. Imports no
 * domain.
 */

/**
 * The revision of a stored record: an opaque token its store writes anew with each change of the record, so
 * that two reads that give the same revision read the same content. A change planned on a copy is written only
 * while the record still has the copy's revision (docs/cluster.md, "No lost update").
 */
export type Revision = string

/**
 * What durable state a node holds in memory, by kind: the directory's accounts (key: the login name) and
 * settings, users' routing profiles (key: the login name), the clock's offset (key: `offset` when it moved
 * forward, `set` when a reset or restore set it, possibly back); the sessions it uses from its cache (key: the
 * id of a session that closed; platform/sessions/cached-session-store.ts); and the platform as a whole (key:
 * `restored`: a reset or restore replaced it; platform/sandbox/platform-states.ts).
 */
export type ChangeTopic = 'directory' | 'routing' | 'clock' | 'sessions' | 'platform'

/** The key of a notice that says: reload everything of the topic (an import, or notices possibly missed). */
export const EVERY_KEY = '*'

/** One node's following of a topic's notices, until closed. */
export interface ChangeFollower {
  /** Stops telling the follower; nothing more is told, not even what arrived already. */
  close(): void
}

/**
 * Notices of changes to durable state that every node keeps a copy of in memory (docs/cluster.md, "What
 * each node keeps in memory"): the node that stored a change announces it, and the other nodes reload what
 * changed from the store. A notice names what changed, never how: a reload reads the store, so that notices
 * lost, repeated or out of order cost a read, never a wrong copy. The announcing node has applied its change
 * already and is not told of it. A node that may have missed notices (its connection to the others dropped,
 * or a topic not yet followed when they came) tells the topic's followers `EVERY_KEY`: reload everything.
 */
export interface ChangeNotices {
  /**
   * Tells the other nodes that `key` of `topic` changed in the store (stored already). Resolves once every
   * node that heard it has applied it (its followers' work settled), so that a change answered after it is
   * read by any node (docs/cluster.md, "Read your writes"), or once the adapter's bound passed (a node that
   * did not confirm in time is reported). Never rejects: a notice that could not be sent is reported too.
   */
  announce(topic: ChangeTopic, key: string): Promise<void>
  /**
   * Calls `onNotice` with the key of each change to `topic` another node announces from now on, or with
   * `EVERY_KEY`; at once (in a microtask) with `EVERY_KEY` when notices of the topic came before it was
   * followed. `onNotice` handles its own failures; the notice counts as applied by this node once what it
   * returns settled.
   */
  follow(topic: ChangeTopic, onNotice: (key: string) => void | Promise<void>): ChangeFollower
  /** Stops following everything and releases what the adapter holds (its connection). */
  close(): Promise<void>
}
