/**
 * Where the server package lies on disk, found from this module rather than assumed: the module runs from
 * src/assembly/ (tests), dist/assembly/ (the build) or inside dist/main.bundle.js (the bundle, the image), at a
 * different depth each time, and the nearest folder above it that holds a package.json is the package's in all
 * three.
 */

import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

function nearestPackageFolder(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`no package.json in any folder above ${from}`)
  }
}

/** packages/server: the folder of the server's package.json. */
export const SERVER_PACKAGE_FOLDER = nearestPackageFolder(dirname(fileURLToPath(import.meta.url)))
