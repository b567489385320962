/**
 * The engine's hunting groups follow the directory file's (docs/groups.md, "Where groups live"): the engine
 * keeps its groups in its own state, changed by the API and the control plane as calls run; the file's groups
 * are taken when the engine has none taken yet, and again when the file changed. The engine remembers the
 * digest of the file's groups it took, so that a start with the same file keeps what changed since.
 */
import { createHash } from 'node:crypto'
import type { HuntingGroupDefinition } from './hunting-groups.js'
import type { FileHuntingGroups } from './restored-state.js'
import type { CommandResult } from './telephony.js'
import type { EngineCommand, TelephonyState } from './telephony-state.js'

/** The file's groups with their digest. */
export function fileHuntingGroups(
  groups: readonly HuntingGroupDefinition[] | undefined,
): FileHuntingGroups {
  const list = groups ?? []
  return {
    groups: list,
    digest: createHash('sha256').update(JSON.stringify(list)).digest('base64url'),
  }
}

/** The engine as the follower uses it: its state and its commands. */
export interface GroupEngine {
  readonly state: Pick<TelephonyState, 'huntingProvision'>
  execute(command: EngineCommand): Promise<CommandResult>
}

/**
 * Gives the engine the file's groups unless it took these already (the node owns the engine: at its start,
 * and when it becomes the owner). Resolves once the engine has them.
 */
export async function followFileGroups(
  engine: GroupEngine,
  file: FileHuntingGroups,
): Promise<void> {
  if (engine.state.huntingProvision === file.digest) return
  await engine.execute({
    type: 'provisionHuntingGroups',
    groups: [...file.groups],
    ...(file.digest !== undefined && { digest: file.digest }),
  })
}
