// The CPU a process, a server's processes by name, or the whole machine used, from /proc on Linux: to tell whether a
// server was saturated during a round, what a round cost each part of a setup, and how much other processes took.
import { readdirSync, readFileSync } from 'node:fs'

const TICK_MS = 10 // USER_HZ is 100 on Linux

/**
 * CPU time of process `pid` so far (user + system), in ms; NaN where /proc is not there. With `thread`, of
 * that thread of the process only (a process's main thread has the process's id).
 */
export function processCpuMs(pid, thread) {
  try {
    const path = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`
    const stat = readFileSync(path, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS
  } catch {
    return Number.NaN
  }
}

/** CPU time of the whole machine so far, every core, busy states only, in ms. */
export function machineCpuMs() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number)
    // user nice system idle iowait irq softirq steal: everything but idle and iowait
    return (fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]) * TICK_MS
  } catch {
    return Number.NaN
  }
}

/**
 * Runs `phase`; resolves with its result, the cores `pid` used on average meanwhile, and the share of a core
 * its main thread used (`mainCores`: near 1 when the JavaScript of a Node.js process was the bound).
 */
export async function withCpu(pid, phase) {
  const start = {
    wall: performance.now(),
    cpu: processCpuMs(pid),
    main: processCpuMs(pid, pid),
    machine: machineCpuMs(),
  }
  const result = await phase()
  const wall = performance.now() - start.wall
  return {
    result,
    cores: (processCpuMs(pid) - start.cpu) / wall,
    mainCores: (processCpuMs(pid, pid) - start.main) / wall,
    machineCores: (machineCpuMs() - start.machine) / wall,
  }
}

/**
 * CPU time of this process and of its children that have exited (Linux counts a reaped child's time in
 * its parent's cutime and cstime), in ms: the benchmark's own CPU once its children are ended.
 */
export function processTreeCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (
      (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS
    )
  } catch {
    return Number.NaN
  }
}

/**
 * The ids of the processes whose command name is `name` (`redis-server`, `postgres`: a server's processes, its
 * backends included), from /proc; none where /proc is not there.
 */
export function processesNamed(name) {
  let entries
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  const pids = []
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry))
    } catch {
      // Gone meanwhile.
    }
  }
  return pids
}

/** CPU time so far of each of the processes `pids`, in ms, by pid (those gone meanwhile left out). */
export function processesCpuMs(pids) {
  const times = new Map()
  for (const pid of pids) {
    const ms = processCpuMs(pid)
    if (!Number.isNaN(ms)) times.set(pid, ms)
  }
  return times
}

/** The CPU the processes of `before` (processesCpuMs) used since, together, in ms; those gone since count 0. */
export function processesCpuSince(before) {
  let sum = 0
  for (const [pid, ms] of before) {
    const now = processCpuMs(pid)
    if (!Number.isNaN(now)) sum += now - ms
  }
  return sum
}
