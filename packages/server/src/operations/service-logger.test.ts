import { Writable } from 'node:stream'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { createServiceLogger, logFormatFor } from './service-logger.js'

/** A destination that keeps what is written to it. */
function capture(): { stream: Writable; text: () => string } {
  let text = ''
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString()
      done()
    },
  })
  return { stream, text: () => text }
}

describe('the service logger', () => {
  it('writes pretty lines on a terminal and JSON lines elsewhere, unless LOG_FORMAT says', () => {
    expect(logFormatFor(undefined, true)).toBe('pretty')
    expect(logFormatFor(undefined, false)).toBe('json')
    expect(logFormatFor('json', true)).toBe('json')
    expect(logFormatFor('pretty', false)).toBe('pretty')
  })

  it('writes one JSON object a line in the json format', () => {
    const { stream, text } = capture()
    const logger = createServiceLogger({ level: 'info', format: 'json', destination: stream })
    logger.info({ callRef: 'c1', parties: ['alice (1001)'] }, 'call created')
    logger.debug('not at info')
    const lines = text().trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 30,
      msg: 'call created',
      callRef: 'c1',
      parties: ['alice (1001)'],
    })
  })

  it('writes a pretty line a message, synchronously, without pid nor host, colourless off a terminal', () => {
    const { stream, text } = capture()
    const logger = createServiceLogger({
      level: 'info',
      format: 'pretty',
      destination: stream,
      isTTY: false,
    })
    logger.info({ callRef: 'c1', reason: 'release' }, 'call ended')
    // Written before info() returned: no worker thread, no asynchronous flush.
    expect(text()).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: call ended \{"callRef":"c1","reason":"release"\}\n$/,
    )
    expect(text()).not.toMatch(/pid|hostname/)
    expect(stripVTControlCharacters(text())).toBe(text())
  })

  it('colours the pretty lines on a terminal', () => {
    const { stream, text } = capture()
    const logger = createServiceLogger({
      level: 'info',
      format: 'pretty',
      destination: stream,
      isTTY: true,
    })
    logger.warn('webhook request failed')
    expect(stripVTControlCharacters(text())).not.toBe(text())
    expect(stripVTControlCharacters(text())).toMatch(/WARN: webhook request failed/)
  })
})
