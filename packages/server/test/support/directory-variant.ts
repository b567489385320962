/** Writes a variant of the demo directory file (changed by `edit`) to a temporary file and returns its path. */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse, stringify } from 'yaml'
import { DEMO_DIRECTORY_FILE } from '../../src/assembly/config.js'

export async function directoryVariant(
  edit: (document: Record<string, unknown>) => void,
): Promise<string> {
  const document = parse(await readFile(DEMO_DIRECTORY_FILE, 'utf8')) as Record<string, unknown>
  edit(document)
  const path = join(await mkdtemp(join(tmpdir(), 'openness-directory-')), 'directory.yaml')
  await writeFile(path, stringify(document))
  return path
}
