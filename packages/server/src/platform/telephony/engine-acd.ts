/**
 * The engine's contact center follows the directory file's (docs/directory-file.md, `contactCenter`), as its
 * hunting groups do (engine-groups.ts): the engine keeps the contact center in its own state, where agents log on
 * and calls queue; the file's definition is provisioned when the engine has not taken it yet, and again when the
 * file's changed. The engine remembers the digest of the definition it took (`AcdState.provision`), so that a
 * start with the same file keeps the agents' states and the calendars changed since.
 */
import { createHash } from 'node:crypto'
import type { AcdState } from '../acd/acd-state.js'
import type { ContactCenterDefinition } from '../acd/contact-center.js'
import type { EngineCommand } from './telephony-state.js'

/** The directory file's contact center with its digest; both absent when the file has none. */
export interface FileContactCenter {
  definition: ContactCenterDefinition | undefined
  digest: string | undefined
}

/** The file's contact center with its digest (none without a contact center). */
export function fileContactCenter(
  definition: ContactCenterDefinition | undefined,
): FileContactCenter {
  if (definition === undefined) return { definition: undefined, digest: undefined }
  return {
    definition,
    digest: createHash('sha256').update(JSON.stringify(definition)).digest('base64url'),
  }
}

/** The engine as the follower uses it: what it holds of the contact center, and its commands. */
export interface ContactCenterEngine {
  readonly state: { readonly acd?: Pick<AcdState, 'provision'> | undefined }
  execute(command: EngineCommand): Promise<unknown>
}

/** The definition that removes the contact center (acd-pilots.ts `provisionContactCenter`). */
const NO_CONTACT_CENTER: ContactCenterDefinition = {
  pilots: [],
  queues: [],
  processingGroups: [],
  operators: [],
  skills: [],
}

/**
 * Gives the engine the file's contact center unless it took this one already (the node owns the engine: at its
 * start, when it becomes the owner, after a reset). A file without a contact center removes the one the engine took
 * from an earlier file, and leaves alone one that came from elsewhere (no digest: the control plane's). Resolves
 * once the engine has it.
 */
export async function followFileContactCenter(
  engine: ContactCenterEngine,
  file: FileContactCenter,
): Promise<void> {
  if (engine.state.acd?.provision === file.digest) return
  await engine.execute({
    type: 'provisionContactCenter',
    definition: file.definition ?? NO_CONTACT_CENTER,
    ...(file.digest !== undefined && { digest: file.digest }),
  })
}
