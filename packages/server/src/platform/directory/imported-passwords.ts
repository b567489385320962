/**
 * The passwords a directory file gives in clear, hashed after the import instead of during it: hashing
 * the demo directory's 14 passwords at OWASP's scrypt cost takes seconds of CPU, which kept the service
 * from answering anything on a first start (docs/directory-file.md, "The file and the store"). Each hash
 * starts when first wanted (the account's login) or when the import is completed, whichever comes first.
 */
import type { PasswordHasher } from '../auth/password-hasher.js'
import type { Revision } from '../change-notices.js'
import type { DirectorySnapshot } from './directory-store.js'

/** A password of the directory file still to hash, with the account's earlier hash that may verify it. */
export interface PasswordToHash {
  loginName: string
  password: string
  /** The hash stored before this import: kept when it still verifies the file's password. */
  earlierHash?: string
}

/** An imported directory: the snapshot to serve at once, and the file's passwords still to hash. */
export interface DirectoryImport {
  /** Accounts whose password is in `passwords` have no passwordHash yet. */
  snapshot: DirectorySnapshot
  passwords: readonly PasswordToHash[]
  /**
   * The revisions of the accounts stored when the import was planned (empty: none was stored): the import is
   * stored only over those, and merged again with what is stored when another node changed them meanwhile
   * (docs/cluster.md, "No lost update"). Undefined: stored over whatever is there.
   */
  basedOn?: ReadonlyMap<string, Revision>
}

/** Why {@link ImportedPasswords.all} gave up: the service is stopping. */
export class ImportAbandonedError extends Error {
  constructor() {
    super('The import of the directory file was abandoned before its passwords were hashed')
  }
}

/**
 * The hashes of an import's passwords, each computed once: at once when an account logs in, else one
 * after the other (one scrypt at a time leaves the other core to the requests, and its memory is
 * 128 MiB at OWASP's cost).
 */
export class ImportedPasswords {
  readonly #tasks: ReadonlyMap<string, PasswordToHash>
  readonly #hashes = new Map<string, Promise<string>>()
  #abandoned = false

  constructor(
    passwords: readonly PasswordToHash[],
    private readonly hasher: PasswordHasher,
  ) {
    this.#tasks = new Map(passwords.map((task) => [task.loginName, task]))
  }

  /** The hash of the account's password, started now if it was not yet. */
  hashOf(loginName: string): Promise<string> | undefined {
    const task = this.#tasks.get(loginName)
    return task === undefined ? undefined : this.#started(task)
  }

  /** Every hash, by login name, computed one after the other; ImportAbandonedError after abandon(). */
  async all(): Promise<Map<string, string>> {
    const hashes = new Map<string, string>()
    for (const task of this.#tasks.values()) {
      if (this.#abandoned) throw new ImportAbandonedError()
      hashes.set(task.loginName, await this.#started(task))
    }
    return hashes
  }

  /** Starts no more hashes in all(), which then fails: the next start imports the file again. */
  abandon(): void {
    this.#abandoned = true
  }

  /** The hash of `task`, started on the first call. */
  #started(task: PasswordToHash): Promise<string> {
    let hash = this.#hashes.get(task.loginName)
    if (hash === undefined) {
      hash = this.#hash(task)
      this.#hashes.set(task.loginName, hash)
    }
    return hash
  }

  async #hash({ password, earlierHash }: PasswordToHash): Promise<string> {
    if (earlierHash !== undefined && (await this.hasher.verify(password, earlierHash)))
      return earlierHash
    return this.hasher.hash(password)
  }
}

/** `snapshot` with the hashes of its imported passwords in their accounts. */
export function withPasswordHashes(
  snapshot: DirectorySnapshot,
  hashes: ReadonlyMap<string, string>,
): DirectorySnapshot {
  return {
    ...snapshot,
    accounts: snapshot.accounts.map((account) => {
      const passwordHash = hashes.get(account.loginName)
      return passwordHash === undefined ? account : { ...account, passwordHash }
    }),
  }
}
