/**
 * Which URLs a subscription may name as its `webHookUrl` (docs/subscriptions.md, "Webhook delivery"): an
 * absolute http(s) URL whose host the operator allows (WEBHOOK_ALLOWED_HOSTS), so that a shared sandbox
 * is no open relay. The check reads the URL only: nothing is resolved or connected to.
 */
import { BlockList, isIP } from 'node:net'

/** The default allow-list: loopback only. */
export const DEFAULT_WEBHOOK_ALLOWED_HOSTS = '127.0.0.0/8,::1,localhost'

/** The longest webHookUrl kept. */
const MAX_URL_LENGTH = 2048

/** The outcome of checking a webHookUrl: the normalized URL, or why it is refused. */
export type WebhookTargetCheck = { ok: true; url: string } | { ok: false; message: string }

/** An allow-list entry that cannot be read. */
export class WebhookAllowListError extends Error {
  override readonly name = 'WebhookAllowListError'
}

/**
 * The operator's allow-list of webhook hosts: `*` (any host), host names (matched exactly, without
 * resolving them), IP addresses and CIDR blocks (matching URLs whose host is an IP literal).
 */
export class WebhookTargets {
  private readonly anyHost: boolean
  private readonly names = new Set<string>()
  private readonly addresses = new BlockList()
  /** The list as configured, for messages. */
  readonly description: string

  /** Reads a comma-separated list; throws WebhookAllowListError naming the entry it cannot read. */
  constructor(list: string = DEFAULT_WEBHOOK_ALLOWED_HOSTS) {
    const entries = list
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== '')
    this.anyHost = entries.includes('*')
    for (const entry of entries) if (entry !== '*') this.add(entry)
    this.description = entries.join(', ') || '(none)'
  }

  /** Checks `raw` as a webHookUrl. */
  check(raw: string): WebhookTargetCheck {
    const refuse = (why: string): WebhookTargetCheck => ({
      ok: false,
      message: `webHookUrl: ${why}`,
    })
    if (raw.length > MAX_URL_LENGTH) return refuse(`longer than ${MAX_URL_LENGTH} characters`)
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      return refuse('must be an absolute http or https URL')
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return refuse('must be an absolute http or https URL')
    if (url.username !== '' || url.password !== '')
      return refuse('must not carry a user name or password')
    if (!this.allows(url.hostname))
      return refuse(
        `host '${url.hostname}' is not allowed for webhook delivery on this server (allowed: ${this.description}; the operator sets WEBHOOK_ALLOWED_HOSTS)`,
      )
    url.hash = ''
    return { ok: true, url: url.href }
  }

  /** Whether `hostname` (as URL.hostname gives it: IPv6 in brackets) is allowed. */
  allows(hostname: string): boolean {
    if (this.anyHost) return true
    const host = hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '')
    const family = isIP(host)
    if (family === 0) return this.names.has(host)
    return this.addresses.check(host, family === 4 ? 'ipv4' : 'ipv6')
  }

  private add(entry: string): void {
    const [address = '', prefix, extra] = entry.split('/')
    const family = isIP(address)
    if (family === 0) {
      if (
        prefix !== undefined ||
        !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(entry)
      )
        throw new WebhookAllowListError(
          `'${entry}': not a host name, an IP address, a CIDR block or *`,
        )
      this.names.add(entry)
      return
    }
    const type = family === 4 ? 'ipv4' : 'ipv6'
    if (prefix === undefined) {
      this.addresses.addAddress(address, type)
      return
    }
    const bits = Number(prefix)
    const max = family === 4 ? 32 : 128
    if (extra !== undefined || !/^\d+$/.test(prefix) || bits > max)
      throw new WebhookAllowListError(`'${entry}': the prefix length must be from 0 to ${max}`)
    this.addresses.addSubnet(address, bits, type)
  }
}
