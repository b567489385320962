/**
 * The `operationId` of each operation of the OpenAPI documents (issue 16, found 3): what a generated client names
 * its methods after. A route names its operation in its schema (`operationId`), after the vendor's SDKs where
 * they have one (`makeCall`, `getSessionInfo`); a route that names none gets one derived from its method and
 * path, so that every operation has one, always the same.
 */

/** The HEAD twin of a named route: @fastify/swagger appends `-head`, which is not camelCase. */
const HEAD_SUFFIX = '-head'

/**
 * The operationId of a route: the one its schema declares (`keepAlive-head` becoming `keepAliveHead`), else
 * one derived from the method and the path below `basePath`: `GET /a/{id}/b` → `getAByIdB`.
 */
export function operationIdOf(
  method: string,
  url: string,
  basePath: string,
  declared: string | undefined,
): string {
  if (declared !== undefined)
    return declared.endsWith(HEAD_SUFFIX)
      ? `${declared.slice(0, -HEAD_SUFFIX.length)}Head`
      : declared
  return derivedOperationId(method, url, basePath)
}

/** `GET /api/rest/1.0/users/:loginName/preferences` below `/api/rest` → `getUsersByLoginNamePreferences`. */
export function derivedOperationId(method: string, url: string, basePath: string): string {
  const below = url.startsWith(basePath) ? url.slice(basePath.length) : url
  const words = below
    .split('/')
    .filter((segment) => segment !== '' && !/^\d+(\.\d+)*$/.test(segment))
    .flatMap((segment) => {
      const parameter = /^(?::|\{)(\w+)\}?$/.exec(segment)?.[1]
      return parameter === undefined ? segment.split(/[^A-Za-z0-9]+/) : ['by', parameter]
    })
    .filter((word) => word !== '')
  return [method.toLowerCase(), ...words.map(capitalized)].join('')
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)
