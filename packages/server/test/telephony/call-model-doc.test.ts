/**
 * Keeps the transition tables of docs/call-model.md (call, leg, participant) equal to the code's single table
 * of connection moves, `CONNECTION_TRANSITIONS` with `CONNECTION_INITIAL_STATES` (style guide section 4).
 */
import { readFileSync } from 'node:fs'
import { MEDIA_STATES, type MediaState } from '@openness/wire'
import { describe, expect, it } from 'vitest'
import {
  CONNECTION_INITIAL_STATES,
  CONNECTION_TRANSITIONS,
} from '../../src/platform/telephony/media-state-machine.js'

const DOCUMENT = readFileSync(new URL('../../../../docs/call-model.md', import.meta.url), 'utf8')
const NEW = '(new)'

/** The moves of the table between `<!-- name -->` and `<!-- /name -->`, as "FROM -> TO" lines, sorted. */
function documentedMoves(name: string): string[] {
  const start = DOCUMENT.indexOf(`<!-- ${name} -->`)
  const end = DOCUMENT.indexOf(`<!-- /${name} -->`)
  if (start < 0 || end < start) throw new Error(`docs/call-model.md has no table ${name}`)
  const rows = DOCUMENT.slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replaceAll('`', '')),
    )
  const [header, separator, ...body] = rows
  expect(header?.slice(0, 2)).toEqual(['From', 'To'])
  expect(separator?.every((cell) => /^:?-+:?$/.test(cell))).toBe(true)
  const states = new Set<string>([NEW, ...MEDIA_STATES])
  return body
    .map(([from = '', to = '']) => {
      expect(states.has(from), `${name}: unknown state '${from}'`).toBe(true)
      expect(states.has(to) && to !== NEW, `${name}: unknown state '${to}'`).toBe(true)
      return `${from} -> ${to}`
    })
    .sort()
}

/** The code's moves, in the same form. */
function codeMoves(): string[] {
  const moves = CONNECTION_INITIAL_STATES.map((to) => `${NEW} -> ${to}`)
  for (const from of MEDIA_STATES)
    for (const to of CONNECTION_TRANSITIONS[from] as readonly MediaState[])
      moves.push(`${from} -> ${to}`)
  return moves.sort()
}

describe('docs/call-model.md and the code', () => {
  it('has a transition table in the code for every MediaState, naming only MediaStates', () => {
    expect(Object.keys(CONNECTION_TRANSITIONS).sort()).toEqual([...MEDIA_STATES].sort())
    for (const to of Object.values(CONNECTION_TRANSITIONS).flat())
      expect(MEDIA_STATES).toContain(to)
  })

  for (const table of ['leg-transitions', 'participant-transitions', 'call-transitions'])
    it(`lists in ${table} exactly the moves of CONNECTION_TRANSITIONS, once each`, () => {
      const documented = documentedMoves(table)
      expect(new Set(documented).size, 'a move listed twice').toBe(documented.length)
      expect(documented).toEqual(codeMoves())
    })
})
