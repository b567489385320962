/**
 * The scenario library (the repository's `scenarios/` folder, docs/scenarios.md "The library"): the common CTI
 * cases as files that are documentation and tests at once. Each `<name>.yaml` is the scenario `<name>`.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PlatformError } from '../../platform/platform-error.js'
import { readScenarioText, ScenarioFileError } from './scenario-file.js'

/** A scenario of the library as listed. */
export interface LibraryEntry {
  name: string
  description?: string
  /** The file's problems, when it cannot be run (a library being edited). */
  problems?: string[]
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/
const EXTENSION = '.yaml'

export class ScenarioLibrary {
  constructor(private readonly directory: string) {}

  /** Every scenario of the library, by name; none when the folder is not there. */
  async list(): Promise<LibraryEntry[]> {
    let files: string[]
    try {
      files = await readdir(this.directory)
    } catch {
      return []
    }
    const names = files
      .filter((file) => file.endsWith(EXTENSION))
      .map((file) => file.slice(0, -EXTENSION.length))
      .filter((name) => NAME.test(name))
      .sort()
    return Promise.all(names.map((name) => this.#entry(name)))
  }

  /** The text of the scenario `name`; NOT_FOUND when the library has none of that name. */
  async text(name: string): Promise<string> {
    if (!NAME.test(name)) throw notFound(name)
    try {
      return await readFile(join(this.directory, `${name}${EXTENSION}`), 'utf8')
    } catch {
      throw notFound(name)
    }
  }

  async #entry(name: string): Promise<LibraryEntry> {
    try {
      const document = readScenarioText(await this.text(name))
      return {
        name,
        ...(document.description !== undefined && {
          description: firstParagraph(document.description),
        }),
      }
    } catch (error) {
      if (error instanceof ScenarioFileError) return { name, problems: [...error.problems] }
      throw error
    }
  }
}

function notFound(name: string): PlatformError {
  return new PlatformError(
    'NOT_FOUND',
    `No scenario '${name}' in the library (GET /control/v1/scenarios lists them)`,
  )
}

/** A description's first paragraph on one line, for a list. */
function firstParagraph(text: string): string {
  const [first = ''] = text.trim().split(/\n\s*\n/)
  return first.replace(/\s+/g, ' ')
}
