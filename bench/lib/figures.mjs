// Figure declarations shared by the benchmarks (bench/run.mjs reads `figures`: key, label, unit, the
// baseline figure a ratio is taken to, and an optional target).

/**
 * A figure of the service (`service.<name>`) and the same figure of the bare baseline (`bare.<name>`), as
 * the table's two rows: the service's with its ratio to the baseline's (and `target`, if any), then the
 * baseline's, labelled `baselineLabel`.
 */
export function besideBaseline(
  name,
  label,
  unit,
  { target, baselineLabel = '  bare node:http (baseline)' } = {},
) {
  return [
    { key: `service.${name}`, label, unit, baseline: `bare.${name}`, ...(target && { target }) },
    { key: `bare.${name}`, label: baselineLabel, unit },
  ]
}
