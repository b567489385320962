/**
 * The pieces readme-snippets.test.ts stands on: which fenced blocks are snippets and what names them, how a
 * run on other ports writes its ports, and how promised output is matched.
 */
import { describe, expect, it } from 'vitest'
import { configurationVariables, shellBlocks } from './readme-blocks.js'
import { withPorts } from './snippet-plans.js'
import { missingInOrder } from './snippet-shell.js'

describe('shellBlocks', () => {
  it('takes sh, bash and untagged blocks in order, named by their first line without its comment', () => {
    const markdown = [
      '## Start',
      '```sh',
      'npm start     # starts it',
      'curl http://localhost:8080/x#frag',
      '```',
      '```yaml',
      'users: []',
      '```',
      '### Other',
      '```bash',
      '',
      '  echo   two   # spaced',
      '```',
      '```',
      'echo three',
      '```',
    ].join('\n')
    const blocks = shellBlocks(markdown)
    expect(blocks.map((block) => [block.key, block.heading, block.line])).toEqual([
      ['npm start', 'Start', 3],
      ['echo two', 'Other', 11],
      ['echo three', 'Other', 15],
    ])
    expect(blocks[0]?.text).toBe('npm start     # starts it\ncurl http://localhost:8080/x#frag\n')
  })
})

describe('configurationVariables', () => {
  it('reads the first column of the Configuration table, two names in one cell too', () => {
    const table = [
      '| variable | default |',
      '| --- | --- |',
      '| `HOST` | `127.0.0.1` |',
      '| `TLS_CERT_FILE`, `TLS_KEY_FILE` | generated |',
      'text with `NOT_A_ROW`',
    ].join('\n')
    expect(configurationVariables(table)).toEqual(['HOST', 'TLS_CERT_FILE', 'TLS_KEY_FILE'])
  })
})

describe('withPorts', () => {
  const ports = new Map([
    [8080, 18080],
    [8090, 18090],
    [5432, 5432],
  ])

  it('writes the ports in host:port and in *_PORT=, and leaves a port 0 (off) as it is', () => {
    expect(
      withPorts(
        'curl http://localhost:8080/a http://127.0.0.1:8090 pg://h@127.0.0.1:5432/t\nHTTP_PORT=8080 HTTPS_PORT=0 x',
        ports,
      ),
    ).toBe(
      'curl http://localhost:18080/a http://127.0.0.1:18090 pg://h@127.0.0.1:5432/t\nHTTP_PORT=18080 HTTPS_PORT=0 x',
    )
  })

  it('refuses a port it has no entry for, so that a new one is not left on the README default', () => {
    expect(() => withPorts('curl http://localhost:9999/', ports)).toThrow(/port 9999/)
    expect(() => withPorts('CONTROL_PORT=8091 npm start', ports)).toThrow(/port 8091/)
  })
})

describe('missingInOrder', () => {
  it('finds each text after the one before it', () => {
    expect(missingInOrder('a 204 b 204', ['204', '204'])).toBeUndefined()
    expect(missingInOrder('a 204 b', ['204', '204'])).toBe('204')
    expect(missingInOrder('second first', ['first', 'second'])).toBe('second')
    expect(missingInOrder('anything', [])).toBeUndefined()
  })
})
