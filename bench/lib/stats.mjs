// Order statistics shared by the runner and the load generators.

/** The nearest-rank percentile `p` (0–100) of ascending `sorted`; NaN when empty. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

/** The median of `values` (the lower middle of an even count, so that it is a value that was measured). */
export function median(values) {
  const sorted = ascending(values)
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN
}

/** The finite values of `values`, ascending, as a Float64Array. */
export function ascending(values) {
  return Float64Array.from(values).filter(Number.isFinite).sort()
}

/** p50, p99 and max of `values` (ms). */
export function latencySummary(values) {
  const sorted = ascending(values)
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  }
}

/** { median, min, max } of `values`; NaNs when none is finite. */
export function spread(values) {
  const sorted = ascending(values)
  return {
    median: sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN,
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  }
}
