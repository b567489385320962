/**
 * Named prepared statements on PostgreSQL through Kysely (docs/cluster-engine.md, "The engine's saves in one
 * statement"). Kysely's PostgreSQL driver runs every query as `client.query(text, values)`, an unnamed
 * statement that PostgreSQL parses, analyses and plans again each time. A statement whose text begins with
 * `namedStatement(name)` is run by the pool's client as the named statement `name` instead: node-postgres
 * parses it once per connection and then only binds and executes it, and PostgreSQL may keep its plan.
 *
 * Only statements of a fixed text are to be named (the engine's fenced save: its rows travel as JSON), since
 * node-postgres refuses a name used on one connection for two texts, and a connection keeps each named
 * statement until it ends.
 */
import type pg from 'pg'

const PREFIX = '/* statement '
const SUFFIX = ' */'

/** The comment a statement's text begins with to be run as the prepared statement `name` (letters, digits, -). */
export function namedStatement(name: string): string {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`"${name}" is not a statement name`)
  return `${PREFIX}${name}${SUFFIX}`
}

/** The name a statement's text asks to be prepared under, or undefined. */
export function statementName(text: string): string | undefined {
  if (!text.startsWith(PREFIX)) return undefined
  const end = text.indexOf(SUFFIX, PREFIX.length)
  return end < 0 ? undefined : text.slice(PREFIX.length, end)
}

/**
 * A subclass of node-postgres's Client (for `new pg.Pool({ Client })`) that runs the texts naming a
 * statement (`namedStatement`) as that named prepared statement, and every other query as before.
 */
export function namingClient(Client: typeof pg.Client): typeof pg.Client {
  class NamingClient extends Client {
    // biome-ignore lint/suspicious/noExplicitAny: node-postgres's query has many overloads; only one is changed
    override query(config: any, values?: any, callback?: any): any {
      if (typeof config === 'string' && (values === undefined || Array.isArray(values))) {
        const name = statementName(config)
        if (name !== undefined) return super.query({ name, text: config, values }, callback)
      }
      return super.query(config, values, callback)
    }
  }
  return NamingClient
}
