/** The resolved histogram: Prometheus' bucket rule (a value on a bound counts in it), cumulative lines, one series per labels. */
import { Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { ResolvedHistogram } from './resolved-histogram.js'

describe('ResolvedHistogram', () => {
  it('counts each value in the first bucket whose bound it does not exceed, and renders them cumulated', async () => {
    const registry = new Registry()
    const histogram = new ResolvedHistogram(registry, {
      name: 'test_seconds',
      help: 'Test',
      labelNames: ['route'],
      buckets: [0.1, 1],
    })
    const series = histogram.series({ route: '/a' })
    expect(histogram.series({ route: '/a' })).toBe(series)
    for (const value of [0.05, 0.1, 0.5, 1, 7]) series.observe(value)
    histogram.series({ route: '/b' }).observe(2)

    expect((await registry.metrics()).split('\n')).toEqual([
      '# HELP test_seconds Test',
      '# TYPE test_seconds histogram',
      'test_seconds_bucket{route="/a",le="0.1"} 2',
      'test_seconds_bucket{route="/a",le="1"} 4',
      'test_seconds_bucket{route="/a",le="+Inf"} 5',
      'test_seconds_sum{route="/a"} 8.65',
      'test_seconds_count{route="/a"} 5',
      'test_seconds_bucket{route="/b",le="0.1"} 0',
      'test_seconds_bucket{route="/b",le="1"} 0',
      'test_seconds_bucket{route="/b",le="+Inf"} 1',
      'test_seconds_sum{route="/b"} 2',
      'test_seconds_count{route="/b"} 1',
      '',
    ])
  })
})
