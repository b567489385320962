// `npm run example [-- <name>]`: runs the example named (examples/<name>/<name>.mjs), click-to-call by default.
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('.', import.meta.url))
const examples = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const name = process.argv[2] ?? 'click-to-call'
if (!examples.includes(name)) {
  process.stderr.write(`No example '${name}'. The examples: ${examples.join(', ')}\n`)
  process.exit(2)
}
await import(new URL(`./${name}/${name}.mjs`, import.meta.url).href)
