import { describe, expect, it } from 'vitest'
import { WebhookAllowListError, WebhookTargets } from './webhook-targets.js'

describe('WebhookTargets', () => {
  const loopback = new WebhookTargets()

  it.each([
    'http://127.0.0.1:9000/hook',
    'http://127.8.9.10/',
    'https://localhost/o2g/events',
    'http://LOCALHOST.:8080/x',
    'http://[::1]:7000/',
    'http://[::ffff:127.0.0.1]/',
    'http://2130706433/',
  ])('allows the loopback URL %s by default', (url) => {
    expect(loopback.check(url)).toMatchObject({ ok: true })
  })

  it.each([
    ['http://10.1.2.3/', /^webHookUrl: host '10\.1\.2\.3' is not allowed/],
    ['http://client.example/hook', /^webHookUrl: host 'client\.example' is not allowed/],
    ['http://localhost.example/', /not allowed/],
    ['http://[fe80::1]/', /not allowed/],
    ['ftp://127.0.0.1/', /^webHookUrl: must be an absolute http or https URL/],
    ['/relative', /^webHookUrl: must be an absolute http or https URL/],
    ['', /^webHookUrl: must be an absolute http or https URL/],
    ['http://user:secret@127.0.0.1/', /^webHookUrl: must not carry a user name or password/],
    [`http://127.0.0.1/${'a'.repeat(2048)}`, /^webHookUrl: longer than/],
  ])('refuses %s', (url, message) => {
    const check = loopback.check(url)
    expect(check.ok).toBe(false)
    if (!check.ok) expect(check.message).toMatch(message)
  })

  it('normalizes the URL it keeps (no fragment)', () => {
    expect(loopback.check('http://LocalHost:80/a#frag')).toEqual({
      ok: true,
      url: 'http://localhost/a',
    })
  })

  it('reads names, addresses, CIDR blocks and *', () => {
    const targets = new WebhookTargets(' hooks.example.com , 10.0.0.0/8, 192.168.1.7, fd00::/8 ')
    expect(targets.allows('hooks.example.com')).toBe(true)
    expect(targets.allows('other.example.com')).toBe(false)
    expect(targets.allows('10.200.1.1')).toBe(true)
    expect(targets.allows('192.168.1.7')).toBe(true)
    expect(targets.allows('192.168.1.8')).toBe(false)
    expect(targets.allows('[fd12::1]')).toBe(true)
    expect(targets.allows('127.0.0.1')).toBe(false)
    expect(new WebhookTargets('*').allows('anything.example')).toBe(true)
    expect(new WebhookTargets('').allows('127.0.0.1')).toBe(false)
  })

  it.each(['10.0.0.0/33', '10.0.0.0/x', 'host/8', 'bad_name!', '::1/129'])(
    'rejects the entry %s',
    (entry) => {
      expect(() => new WebhookTargets(entry)).toThrow(WebhookAllowListError)
    },
  )
})
