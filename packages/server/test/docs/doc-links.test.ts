/**
 * Every link of the documentation resolves, and every citation of a docs section by its title names a heading
 * that exists, so that neither rots when a page is renamed or a section retitled.
 *
 * Links: in README.md and docs/*.md, each markdown link `[text](target)` and each reference definition
 * `[label]: target` whose target is no absolute URL (a scheme such as http:, https:, mailto:) names a file or
 * folder that exists, relative to the page (or to the repository's root when it starts with `/`); its
 * `#anchor`, when it points into a markdown page, is the GitHub slug of one of that page's headings (lowercase,
 * spaces to `-`, punctuation other than `-` and `_` removed, a repeated heading's slug followed by -1, -2...).
 * Links in fenced code blocks and in inline code are no links.
 *
 * Citations: a page name followed by a section title in double quotes, with or without a comma, the page name
 * bare or as the text of a link (`x.md, "Title"`, `[x.md](x.md), "Title"`, `docs/x.md "Title"`), the titles
 * possibly a list (`"A" and "B"`, `"A", "B" or "C"`). The page must exist and have a section of that title,
 * compared trimmed, white space collapsed and case-insensitively: a heading of any level, as written or as shown
 * (inline code and links reduced to their text), or the part of it before a `,`, `:` or ` (` (the pages cite
 * "Call features" for "Call features: redirect, overflow..."); or a bold run-in title opening a paragraph or a
 * list item (`**Pickup groups.** A directed pickup...`), which the pages use as small sections. A bare `x.md` is
 * the page of docs/ (README.md the one at the root); a name with a folder is taken from the root, else from the
 * citing file's folder. Citations are read in README.md and docs/*.md (a paragraph's
 * soft-wrapped lines joined into one text, fenced code and inline code left out) and in the comments of
 * packages/<name>/src and packages/<name>/test (.ts, .mjs), bench/ and scripts/ (consecutive comment lines joined
 * the same way, inline code left out).
 *
 * Every broken one is reported at once, as `file:line: what is missing`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git'])

/** A text made of source lines joined with one space, and the line each part came from. */
interface Chunk {
  /** The file, relative to the root. */
  readonly file: string
  readonly text: string
  /** Where each source line starts in `text`, in order, with its line number (1-based). */
  readonly starts: readonly { readonly offset: number; readonly line: number }[]
}

/** The line of `chunk`'s file that `offset` of its text came from. */
function lineAt(chunk: Chunk, offset: number): number {
  let line = chunk.starts[0]?.line ?? 1
  for (const start of chunk.starts) {
    if (start.offset > offset) break
    line = start.line
  }
  return line
}

/** Builds chunks from `(line number, text)` pairs, added in order; `end()` closes the current chunk. */
class ChunkBuilder {
  readonly chunks: Chunk[] = []
  private parts: { line: number; text: string }[] = []

  constructor(private readonly file: string) {}

  add(line: number, text: string): void {
    this.parts.push({ line, text })
  }

  end(): void {
    if (this.parts.length === 0) return
    const starts: { offset: number; line: number }[] = []
    let text = ''
    for (const part of this.parts) {
      if (text !== '') text += ' '
      starts.push({ offset: text.length, line: part.line })
      text += part.text
    }
    this.chunks.push({ file: this.file, text, starts })
    this.parts = []
  }
}

// ---------------------------------------------------------------------------------------------------------
// Markdown

const FENCE = /^\s*(`{3,}|~{3,})/
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/

/** The lines of `markdown`, those of fenced code blocks (their fences too) replaced by `undefined`. */
function proseLines(markdown: string): (string | undefined)[] {
  const lines: (string | undefined)[] = markdown.split('\n')
  let fence: string | undefined
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? ''
    if (fence !== undefined) {
      if (new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(line))
        fence = undefined
      lines[index] = undefined
    } else {
      const opening = FENCE.exec(line)
      if (opening) {
        fence = opening[1]
        lines[index] = undefined
      }
    }
  }
  return lines
}

/** `text` with its inline code spans blanked out (the same length, so offsets hold). */
function withoutInlineCode(text: string): string {
  return text.replace(/(`+)(?:(?!\1)[\s\S])*?[^`]\1(?!`)/g, (span) => ' '.repeat(span.length))
}

/** The paragraphs of a markdown file, soft-wrapped lines joined; a heading, table row or list item starts one. */
function markdownChunks(file: string, markdown: string): Chunk[] {
  const builder = new ChunkBuilder(file)
  for (const [index, line] of proseLines(markdown).entries()) {
    if (line === undefined || line.trim() === '') {
      builder.end()
      continue
    }
    const own = ATX_HEADING.test(line) || /^\s*\|/.test(line)
    if (own || /^\s*(?:[-*+]|\d+[.)])\s/.test(line)) builder.end()
    builder.add(index + 1, line)
    if (own) builder.end()
  }
  builder.end()
  return builder.chunks
}

/** A heading's text as GitHub shows it: inline code, links, images, emphasis and tags reduced to their text. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`+/g, '')
    .replace(/(^|[^\w])_([^_]+)_(?=[^\w]|$)/g, '$1$2')
    .replace(/\*+/g, '')
    .trim()
}

/** GitHub's slug of a heading (github-slugger, without its repeat counter). */
function slug(raw: string): string {
  return headingText(raw)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** A paragraph's or list item's bold run-in title (`**Pickup groups.** A directed pickup...`). */
const RUN_IN_TITLE = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*([^*]+?)\*\*/

/**
 * The titles a heading may be cited by, lowercase: as written, as shown, and each leading part of the latter
 * that ends before a `,`, `:` or ` (` (`"Call features"` for `Call features: redirect, overflow...`,
 * `"auth-read"` for `` `auth-read`: the authenticated read...``).
 */
function titlesOf(raw: string): string[] {
  const shown = normalTitle(headingText(raw))
  const parts = [...shown.matchAll(/,|:| \(/g)].map((end) => shown.slice(0, end.index).trim())
  return [normalTitle(raw), shown, ...parts]
}

/** `title` trimmed, its runs of white space one space, lowercase. */
function normalTitle(title: string): string {
  return title.replace(/\s+/g, ' ').trim().toLowerCase()
}

/** What a markdown page offers to links and citations. */
interface Page {
  /** Its anchors: its headings' slugs, a repeat with -1, -2..., and any `<a id>` / `<a name>`. */
  readonly anchors: ReadonlySet<string>
  /** The titles it may be cited by (`titlesOf` its headings and its bold run-in titles). */
  readonly titles: ReadonlySet<string>
}

const pages = new Map<string, Page>()

/** The page at `path` (absolute), read once. */
function page(path: string): Page {
  const known = pages.get(path)
  if (known) return known
  const anchors = new Set<string>()
  const titles = new Set<string>()
  const counts = new Map<string, number>()
  for (const line of proseLines(readFileSync(path, 'utf8'))) {
    if (line === undefined) continue
    const runIn = RUN_IN_TITLE.exec(line)?.[1]
    if (runIn) for (const title of titlesOf(runIn.replace(/[.:]$/, ''))) titles.add(title)
    for (const html of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(html[1] ?? '')
    const heading = ATX_HEADING.exec(line)
    if (!heading) continue
    const raw = (heading[1] ?? '').trim()
    for (const title of titlesOf(raw)) titles.add(title)
    const base = slug(raw)
    let anchor = base
    if (counts.has(base)) {
      let count = counts.get(base) ?? 0
      do anchor = `${base}-${++count}`
      while (counts.has(anchor))
      counts.set(base, count)
    }
    counts.set(anchor, 0)
    anchors.add(anchor)
  }
  const made = { anchors, titles }
  pages.set(path, made)
  return made
}

const INLINE_LINK =
  /!?\[((?:[^[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g
const REFERENCE_DEFINITION = /^ {0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s|$)/
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i

/** What is wrong with link `target` of markdown `file` (relative to the root), or undefined. */
function brokenLink(file: string, target: string): string | undefined {
  if (target === '' || ABSOLUTE_URL.test(target)) return undefined
  const hash = target.indexOf('#')
  const pathPart = decodeURI(hash < 0 ? target : target.slice(0, hash))
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1))
  const path =
    pathPart === ''
      ? join(ROOT, file)
      : pathPart.startsWith('/')
        ? join(ROOT, pathPart)
        : resolve(ROOT, dirname(file), pathPart)
  if (!existsSync(path)) return `no file or folder ${relative(ROOT, path) || '.'}`
  if (anchor === undefined || !path.endsWith('.md') || !statSync(path).isFile()) return undefined
  if (page(path).anchors.has(anchor)) return undefined
  return `no heading with slug #${anchor} in ${relative(ROOT, path)}`
}

// ---------------------------------------------------------------------------------------------------------
// Comments of .ts and .mjs files

/**
 * The comments of a script, consecutive comment lines joined (their `//`, `/*`, `*` and indentation left
 * out); a line of code, or a comment line with nothing in it, ends one. The scan is by lines: a `//` comment
 * is one that opens its line or follows code after a space, `/*` one that opens its line.
 */
function commentChunks(file: string, source: string): Chunk[] {
  const builder = new ChunkBuilder(file)
  let inBlock = false
  for (const [index, line] of source.split('\n').entries()) {
    let text: string | undefined
    if (inBlock) {
      const close = line.indexOf('*/')
      if (close >= 0) inBlock = false
      text = (close >= 0 ? line.slice(0, close) : line).replace(/^\s*\*?/, '')
    } else if (/^\s*\/\//.test(line)) {
      text = line.replace(/^\s*\/\/+/, '')
    } else if (/^\s*\/\*/.test(line)) {
      const rest = line.replace(/^\s*\/\*+/, '')
      const close = rest.indexOf('*/')
      if (close < 0) inBlock = true
      text = close < 0 ? rest : rest.slice(0, close)
    } else {
      const trailing = /\s\/\/\s(.*)$/.exec(line)
      builder.end()
      if (trailing) {
        builder.add(index + 1, trailing[1] ?? '')
        builder.end()
      }
      continue
    }
    text = text.trim()
    if (text === '') builder.end()
    else builder.add(index + 1, text)
  }
  builder.end()
  return builder.chunks
}

// ---------------------------------------------------------------------------------------------------------
// Citations

const TITLE = '"([^"\\n]+)"'
const CITATION = new RegExp(
  `(?<![\\w./-])((?:[\\w.-]+/)*[\\w-]+\\.md)\\)?,?\\s+${TITLE}((?:(?:,\\s*|,?\\s+(?:and|or)\\s+)"[^"\\n]+")*)`,
  'g',
)

/** The page a citation names, absolute. */
function citedPage(file: string, name: string): string {
  if (!name.includes('/')) return join(ROOT, name === 'README.md' ? '' : 'docs', name)
  const fromRoot = join(ROOT, name)
  return name.startsWith('.') || !existsSync(fromRoot)
    ? resolve(ROOT, dirname(file), name)
    : fromRoot
}

/** What is wrong with each citation in `chunk`, as report lines. */
function brokenCitations(chunk: Chunk): string[] {
  const broken: string[] = []
  const prose = withoutInlineCode(chunk.text)
  for (const match of chunk.text.matchAll(CITATION)) {
    if (prose[match.index] === ' ') continue
    const [, name = '', first = '', rest = ''] = match
    const where = `${chunk.file}:${lineAt(chunk, match.index)}`
    const path = citedPage(chunk.file, name)
    if (!existsSync(path)) {
      broken.push(`${where}: cites "${first}" of ${name}, which is no file`)
      continue
    }
    const titles = [
      first,
      ...[...rest.matchAll(new RegExp(TITLE, 'g'))].map((title) => title[1] ?? ''),
    ]
    for (const title of titles)
      if (![title, headingText(title)].some((form) => page(path).titles.has(normalTitle(form))))
        broken.push(`${where}: cites "${title}" of ${name}, no heading of ${relative(ROOT, path)}`)
  }
  return broken
}

// ---------------------------------------------------------------------------------------------------------
// The files

/** The files under `folder` (relative to the root) whose names end with one of `endings`, sorted. */
function filesUnder(folder: string, endings: readonly string[]): string[] {
  const found: string[] = []
  const walk = (relativeFolder: string): void => {
    const absolute = join(ROOT, relativeFolder)
    if (!existsSync(absolute)) return
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      const path = join(relativeFolder, entry.name)
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(path)
      } else if (endings.some((ending) => entry.name.endsWith(ending))) found.push(path)
    }
  }
  walk(folder)
  return found.sort()
}

function markdownFiles(): string[] {
  return [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => join('docs', name)),
  ]
}

function scriptFiles(): string[] {
  const packages = readdirSync(join(ROOT, 'packages'))
  return [
    ...packages.flatMap((name) => [
      ...filesUnder(join('packages', name, 'src'), ['.ts', '.mjs']),
      ...filesUnder(join('packages', name, 'test'), ['.ts', '.mjs']),
    ]),
    ...filesUnder('bench', ['.mjs']),
    ...readdirSync(join(ROOT, 'scripts'))
      .filter((name) => name.endsWith('.mjs'))
      .map((name) => join('scripts', name)),
  ]
}

/** What is broken in the links of markdown `file`, as report lines. */
function brokenLinks(file: string, markdown: string): string[] {
  const broken: string[] = []
  for (const chunk of markdownChunks(file, markdown)) {
    const text = withoutInlineCode(chunk.text)
    for (const link of text.matchAll(INLINE_LINK)) {
      const problem = brokenLink(file, link[2] ?? '')
      if (problem)
        broken.push(`${file}:${lineAt(chunk, link.index)}: link (${link[2]}): ${problem}`)
    }
  }
  proseLines(markdown).forEach((line, index) => {
    const definition = line === undefined ? null : REFERENCE_DEFINITION.exec(line)
    const problem = definition && brokenLink(file, definition[2] ?? '')
    if (problem) broken.push(`${file}:${index + 1}: [${definition[1]}]: ${problem}`)
  })
  return broken
}

describe('the documentation', () => {
  it('links only to files, folders and headings that exist', () => {
    const broken = markdownFiles().flatMap((file) =>
      brokenLinks(file, readFileSync(join(ROOT, file), 'utf8')),
    )
    expect(broken).toEqual([])
  })

  it('cites, in the docs and in comments, only sections whose heading exists', () => {
    const chunks = [
      ...markdownFiles().flatMap((file) =>
        markdownChunks(file, readFileSync(join(ROOT, file), 'utf8')),
      ),
      ...scriptFiles().flatMap((file) =>
        commentChunks(file, readFileSync(join(ROOT, file), 'utf8')),
      ),
    ]
    expect(chunks.flatMap(brokenCitations)).toEqual([])
  })
})
