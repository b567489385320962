/**
 * A Prometheus histogram whose series are resolved once (by their label values) and then observed with a few
 * comparisons and additions: the request histogram is observed on every request. prom-client's own Histogram
 * builds a key from the labels and finds the bucket under its bound turned into a string at every observation:
 * 1.4 to 3 µs measured here (`Histogram.labels(...).observe`), against tens of nanoseconds for this one. The
 * registry renders it like any of its metrics (`registerMetric`, with the `get()` shape its metrics have), so the
 * text format stays prom-client's.
 */
import type { Registry } from 'prom-client'

/** One series: the observations per bucket (not cumulative; the last is above every bound), their sum and count. */
export class HistogramSeries {
  readonly counts: number[]
  sum = 0
  count = 0

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0)
  }

  observe(value: number): void {
    const { bounds, counts } = this
    let index = 0
    while (index < bounds.length && value > (bounds[index] as number)) index++
    counts[index] = (counts[index] as number) + 1
    this.sum += value
    this.count++
  }
}

/** What defines the histogram. */
export interface ResolvedHistogramConfig<L extends string> {
  name: string
  help: string
  labelNames: readonly L[]
  /** Upper bounds, ascending. */
  buckets: readonly number[]
}

/** A value of the registry's `get()` shape: a line of the text format. */
interface MetricValue {
  labels: Record<string, string | number>
  value: number
  metricName: string
}

export class ResolvedHistogram<L extends string> {
  readonly type = 'histogram'
  readonly name: string
  readonly help: string
  /** How prom-client's cluster aggregation would merge it (unused: one registry per node). */
  readonly aggregator = 'sum'
  private readonly all = new Map<string, HistogramSeries>()

  constructor(
    registry: Registry,
    private readonly config: ResolvedHistogramConfig<L>,
  ) {
    this.name = config.name
    this.help = config.help
    registry.registerMetric(this as never)
  }

  /** The series of these label values, made on first use: keep it rather than ask again on a hot path. */
  series(labels: Readonly<Record<L, string>>): HistogramSeries {
    const key = this.config.labelNames.map((name) => labels[name]).join('\u0000')
    let found = this.all.get(key)
    if (found === undefined) {
      found = new HistogramSeries(labels, this.config.buckets)
      this.all.set(key, found)
    }
    return found
  }

  /** The lines of every series, cumulative buckets first, as the registry renders them. */
  get(): { name: string; help: string; type: string; values: MetricValue[]; aggregator: string } {
    const { name, buckets } = this.config
    const values: MetricValue[] = []
    for (const series of this.all.values()) {
      let cumulative = 0
      buckets.forEach((bound, index) => {
        cumulative += series.counts[index] as number
        values.push({
          labels: { ...series.labels, le: bound },
          value: cumulative,
          metricName: `${name}_bucket`,
        })
      })
      const labels = series.labels
      values.push(
        { labels: { ...labels, le: '+Inf' }, value: series.count, metricName: `${name}_bucket` },
        { labels: { ...labels }, value: series.sum, metricName: `${name}_sum` },
        { labels: { ...labels }, value: series.count, metricName: `${name}_count` },
      )
    }
    return { name, help: this.help, type: this.type, values, aggregator: this.aggregator }
  }
}
