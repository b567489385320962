/**
 * The sessions' port: credentials and the sessions opened with them (docs/cluster.md, "Sessions and credentials").
 */
import type {
  SessionDraft,
  SessionOpening,
  SessionRecord,
  SessionUse,
  StoredTokenStatus,
} from './session-record.js'
import type { SessionCloseCause } from './session-state.js'

/**
 * Credentials and the sessions opened with them (specification, "Authentication" items 3 and 6, "States and
 * transitions", "Limits"; docs/cluster.md, "Sessions and credentials"). Every operation takes the caller's
 * `now`: the store applies its timing (session-record.ts) to it, never a clock of its own. Each operation is
 * atomic, and one round trip to Redis at most: a request resolving and keeping alive its session is one `use`;
 * a session closes once cluster-wide, and only the caller that closed it is told it did.
 */
export interface SessionStore {
  /** Keeps a new credential of `loginName`, forgotten after the token's time to live unless it opens a session. */
  issueCredential(token: string, loginName: string, now: number): Promise<void>
  /** What `token` stands for at `now`, touching nothing: an OPEN session past its deadline is told as OPEN. */
  status(token: string, now: number): Promise<StoredTokenStatus>
  /**
   * The open session of `token` with its timer restarted at `now`; when the session is past its deadline, this
   * call closes it (EXPIRED) and says so.
   */
  use(token: string, now: number): Promise<SessionUse>
  /** Opens the one session the credential `draft.token` may open, unless it is unknown or opened one already. */
  open(draft: SessionDraft, now: number): Promise<SessionOpening>
  /**
   * Closes the session if it is open: resolves to the record as closed when this call closed it, undefined when
   * it was closed already (or is unknown). The credential is then remembered for the closed retention.
   */
  close(
    sessionId: string,
    cause: SessionCloseCause,
    now: number,
  ): Promise<SessionRecord | undefined>
  /** The session with this id, open or closed and not yet forgotten at `now`. */
  session(sessionId: string, now: number): Promise<SessionRecord | undefined>
  /** The open sessions `owner` opened, oldest first (other sessions, per-account limits). */
  openSessionsOf(owner: string): Promise<SessionRecord[]>
  /** Every open session, earliest deadline first (a switch-over, a stop). */
  openSessions(): Promise<SessionRecord[]>
  /** The open sessions past their deadline at `now`, earliest first, at most `limit`: the sweep closes them. */
  due(now: number, limit: number): Promise<SessionRecord[]>
  /**
   * Forgets the credentials, with their closed sessions, whose time ended at `now` (a credential that opened no
   * session, or one whose session closed longer than the closed retention ago); resolves to how many.
   */
  forgetDue(now: number): Promise<number>
  /**
   * Forgets the credentials of `loginName` that opened no session (its password changed: they were issued
   * for the old one); resolves to how many. Credentials that opened a session follow their session.
   */
  voidCredentialsOf(loginName: string): Promise<number>
}
