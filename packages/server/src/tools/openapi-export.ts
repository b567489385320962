/**
 * Writes docs/openapi.json from the route schemas (`npm run openapi`); with --check, fails when the
 * committed file differs from what the code generates (`npm run wire:check`).
 */
import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { openApiDocument } from './openapi-document.js'

const target = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url))
const document = await openApiDocument()
if (process.argv.includes('--check')) {
  const committed = await readFile(target, 'utf8').catch(() => '')
  if (committed !== document) {
    process.stderr.write(`${target} is out of date: run npm run openapi and commit it\n`)
    process.exit(1)
  }
  process.stdout.write(`${target} matches the route schemas\n`)
} else {
  await writeFile(target, document)
  process.stdout.write(`wrote ${target}\n`)
}
