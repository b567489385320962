/** Which methods each registered path answers, so that a wrong method gets 405 with an Allow header. */

interface PathPattern {
  regex: RegExp
  methods: Set<string>
}

/** A registry of route paths (with `:param` segments) and their methods. */
export class RouteMethods {
  private readonly patterns = new Map<string, PathPattern>()

  /** Records that `url` answers `method` (one or several). */
  add(url: string, method: string | string[]): void {
    if (url.includes('*')) return
    const normalized = url.length > 1 ? url.replace(/\/$/, '') : url
    let pattern = this.patterns.get(normalized)
    if (pattern === undefined) {
      const source = normalized
        .split('/')
        .map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment)))
        .join('/')
      pattern = { regex: new RegExp(`^${source}/?$`), methods: new Set() }
      this.patterns.set(normalized, pattern)
    }
    for (const one of Array.isArray(method) ? method : [method]) pattern.methods.add(one)
  }

  /** The methods some route answers on this concrete path, sorted; empty when no route matches. */
  methodsFor(path: string): string[] {
    const methods = new Set<string>()
    for (const pattern of this.patterns.values()) {
      if (pattern.regex.test(path)) for (const method of pattern.methods) methods.add(method)
    }
    return [...methods].sort()
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
