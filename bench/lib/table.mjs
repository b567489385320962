// The runner's report as markdown: the machine, then one table of every figure, then the notes.

/** A number as the table shows it: 3 significant digits or so, thousands separated. */
export function formatNumber(value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–'
  const magnitude = Math.abs(value)
  if (magnitude >= 1000) return Math.round(value).toLocaleString('en-US')
  if (magnitude >= 100) return value.toFixed(0)
  if (magnitude >= 10) return value.toFixed(1)
  return value.toFixed(2)
}

const percent = (fraction) => `${fraction >= 0 ? '+' : '−'}${Math.abs(fraction * 100).toFixed(0)} %`

function ratioCell(figure) {
  if (!figure.ratio) return ''
  const { median, min, max } = figure.ratio
  if (!Number.isFinite(median)) return '–'
  return `${median.toFixed(2)} (${min.toFixed(2)}–${max.toFixed(2)})`
}

function metCell(figure, smoke) {
  if (!figure.target) return ''
  if (smoke) return 'not judged'
  if (figure.met === null) return '?'
  if (figure.met) return 'yes'
  return figure.vsTarget === undefined ? '**no**' : `**no** (${percent(figure.vsTarget)})`
}

function markdownTable(rows) {
  const widths = rows[0].map((_, column) => Math.max(3, ...rows.map((row) => row[column].length)))
  const line = (row) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`
  return [
    line(rows[0]),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.slice(1).map(line),
  ].join('\n')
}

/** The whole report of `npm run bench` (the object written to latest.json) as markdown. */
export function table(report) {
  const { machine } = report
  const rows = [
    [
      'benchmark',
      'figure',
      'n',
      'median',
      'min',
      'max',
      'unit',
      '× baseline, same run',
      'target',
      'met',
      'generator',
    ],
  ]
  for (const benchmark of report.benchmarks) {
    for (const figure of benchmark.figures) {
      rows.push([
        benchmark.name,
        figure.label,
        String(figure.samples.length),
        formatNumber(figure.median),
        formatNumber(figure.min),
        formatNumber(figure.max),
        figure.unit,
        ratioCell(figure),
        figure.target?.text ?? '',
        metCell(figure, report.smoke),
        benchmark.generators.join(', ') || '–',
      ])
    }
  }
  const lines = [
    '',
    `## \`${report.command}\` — ${report.startedAt.slice(0, 16).replace('T', ' ')} UTC${report.smoke ? ' (smoke: figures not judged)' : ''}`,
    '',
    `Machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node.js ${machine.node} (${machine.platform}); ` +
      `load average ${machine.loadAverage.join(' ')} before, ${machine.loadAverageAfter.join(' ')} after. ` +
      `Total ${report.seconds.toFixed(0)} s. Throughput generator: ${report.throughputGenerator === 'wrk' ? 'wrk (1 thread)' : 'the Node loader (bench/load/http-load.mjs), not wrk'}.`,
    'Median, min and max over n interleaved rounds; "× baseline" is the median (min–max) of the per-round ratios to the baseline measured in the same round.',
    '',
    markdownTable(rows),
  ]
  const notes = report.benchmarks.filter(
    (b) => b.notes.length > 0 || b.error || b.baseline !== undefined,
  )
  if (notes.length > 0) lines.push('')
  for (const benchmark of notes) {
    const parts = []
    parts.push(`baseline: ${benchmark.baseline ?? 'none'}`)
    parts.push(...benchmark.notes)
    if (benchmark.error) parts.push(`**FAILED**: ${benchmark.error}`)
    lines.push(`- **${benchmark.name}** (${benchmark.seconds} s): ${parts.join('; ')}`)
  }
  return `${lines.join('\n')}\n`
}
