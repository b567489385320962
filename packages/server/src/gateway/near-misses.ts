/**
 * What a request no route matched may have meant (docs/journal.md, "Near-misses"): the known routes closest to
 * its method and path. The distance is an edit distance over the path's segments, each segment's own
 * substitution costing the edit distance of its letters (a route's parameter matches any one segment for
 * nothing), a missing or extra segment its length plus one; another method adds one. Only routes within a
 * quarter of the path's length (at least 2) are suggested: a path far from every route gets none.
 */
import type { JournalSuggestion } from '../platform/journal/journal-entry.js'

/** The most suggestions a near-miss carries. */
export const MAX_SUGGESTIONS = 3

interface KnownRoute {
  method: string
  segments: string[]
  suggestion: JournalSuggestion
}

export class KnownRoutes {
  private readonly routes: KnownRoute[] = []

  /** Adds a route: its method, its Fastify URL (`/calls/:callRef`) and its operationId. */
  add(method: string, url: string, operation: string | undefined): void {
    if (url.includes('*')) return
    const segments = segmentsOf(url)
    const path = `/${segments.map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment)).join('/')}`
    this.routes.push({
      method,
      segments,
      suggestion: { method, path, ...(operation !== undefined && { operation }) },
    })
  }

  /** The routes closest to `method` and `path`, the closest first (the first added among equals). */
  suggest(method: string, path: string): JournalSuggestion[] {
    const segments = segmentsOf(path)
    const bound = Math.max(2, Math.floor(path.length / 4))
    return this.routes
      .map((route) => ({
        route,
        distance: segmentDistance(segments, route.segments) + (route.method === method ? 0 : 1),
      }))
      .filter(({ distance }) => distance <= bound)
      .sort((a, b) => a.distance - b.distance)
      .slice(0, MAX_SUGGESTIONS)
      .map(({ route }) => route.suggestion)
  }
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '')
}

/** The edit distance between a request's segments and a route's. */
function segmentDistance(given: readonly string[], route: readonly string[]): number {
  let previous = Array.from({ length: route.length + 1 }, (_, j) =>
    route.slice(0, j).reduce((sum, segment) => sum + segment.length + 1, 0),
  )
  for (let i = 1; i <= given.length; i++) {
    const segment = given[i - 1] ?? ''
    const current = [(previous[0] ?? 0) + segment.length + 1]
    for (let j = 1; j <= route.length; j++) {
      const pattern = route[j - 1] ?? ''
      const substitution = pattern.startsWith(':') ? 0 : letterDistance(segment, pattern)
      current.push(
        Math.min(
          (previous[j - 1] ?? 0) + substitution,
          (previous[j] ?? 0) + segment.length + 1,
          (current[j - 1] ?? 0) + pattern.length + 1,
        ),
      )
    }
    previous = current
  }
  return previous[route.length] ?? 0
}

/** Levenshtein's distance between two segments. */
function letterDistance(a: string, b: string): number {
  if (a === b) return 0
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++)
      current.push(
        Math.min(
          (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
          (previous[j] ?? 0) + 1,
          (current[j - 1] ?? 0) + 1,
        ),
      )
    previous = current
  }
  return previous[b.length] ?? 0
}
