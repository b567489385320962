/**
 * The shell snippets of README.md: its fenced code blocks tagged `sh` (or `bash`, `shell`, `console`, or not
 * tagged at all), in document order, each named by its key: its first line without a trailing comment, which is
 * what the table of snippet-plans.ts lists it by. A block in another language (`yaml`, `json`...) is no snippet.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const README = fileURLToPath(new URL('../../../../README.md', import.meta.url))

const SHELL_LANGUAGES = new Set(['', 'sh', 'bash', 'shell', 'console'])

/** One shell block of the README. */
export interface ReadmeBlock {
  /** Its first line, its trailing comment removed and spaces collapsed: what the plans table names. */
  readonly key: string
  /** The heading it stands under, for messages. */
  readonly heading: string
  /** The README's line number of its first line. */
  readonly line: number
  /** Its text, as a user would paste it. */
  readonly text: string
}

/** A line without its trailing `# comment` (a `#` after a space: not one inside a URL or a word). */
export function withoutComment(line: string): string {
  return line
    .replace(/\s+#.*$/, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The shell blocks of `markdown`, in order. */
export function shellBlocks(markdown: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = []
  const lines = markdown.split('\n')
  let heading = '(top)'
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? ''
    const title = /^#{1,6}\s+(.*)$/.exec(line)
    if (title) heading = title[1] ?? heading
    const fence = /^\s*(```|~~~)\s*([\w-]*)\s*$/.exec(line)
    if (!fence) continue
    const [, marker = '```', language = ''] = fence
    const body: string[] = []
    let end = index + 1
    while (end < lines.length && (lines[end] ?? '').trim() !== marker) body.push(lines[end++] ?? '')
    if (SHELL_LANGUAGES.has(language.toLowerCase())) {
      const first = body.find((text) => text.trim() !== '') ?? ''
      blocks.push({
        key: withoutComment(first),
        heading,
        line: index + 2,
        text: `${body.join('\n')}\n`,
      })
    }
    index = end
  }
  return blocks
}

/** The shell blocks of the repository's README.md. */
export function readmeBlocks(): ReadmeBlock[] {
  return shellBlocks(readFileSync(README, 'utf8'))
}

/**
 * The variables of the README's Configuration table (its first column): the service's settings, which the
 * test keeps out of the environment it runs the snippets in, as a fresh terminal would.
 */
export function configurationVariables(markdown: string): string[] {
  const names = new Set<string>()
  for (const line of markdown.split('\n')) {
    const cell = /^\|\s*(`[A-Z_]+`(?:,\s*`[A-Z_]+`)*)\s*\|/.exec(line)?.[1]
    if (cell) for (const name of cell.matchAll(/`([A-Z_]+)`/g)) names.add(name[1] ?? '')
  }
  return [...names]
}
