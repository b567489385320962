// Event fan-out: memory per open chunk channel and the latency of one event to every channel, at 1,000
// and then 10,000 channels, for the service (bench/servers/channel-server.mjs: the platform on SQLite
// :memory: with real listeners, in a child started with --expose-gc) next to the ceiling, a bare node:http
// server writing one line serialized once to every response (bench/baselines/bare-chunked.mjs).
// Both servers run at once, each with its own clients process (bench/load/channel-clients.mjs); events
// alternate between them (service, bare, service, …), SPACING_MS apart, each awaited on every channel.
// A round is one event of ~500 bytes: its p99 over the channels is the figure (the median over the
// rounds is what the target is about: one event fanned out to all). The service's channels are opened
// on subscriptions of alice to the `user` package; the event is an OnPreferencesChanged for alice.
// Memory per channel = (memory after a forced GC with the channels open and idle − before they opened) /
// channels, summed over the two steps; the subscriptions are created before and are not in it. RSS is the
// target's figure at 10,000; live memory (JS heap in use + native) leaves out the heap V8 grew but holds
// free, which is GC sizing (and all of the 1,000-channel RSS figure's noise).
// The clients read with raw `net` sockets and decode the HTTP/1.1 chunks themselves (they used to read
// with node:http's client, which spent about as much CPU per event as the server it measured, on the
// same two cores: figures from before that change do not compare with later ones). The server's own time is
// reported too: from publish to the last socket write() returned (`write10k`), which is where the
// 10,000-channel latency goes (the clients finish reading within a few ms of it), and the CPU the server
// spent on the event (`cpu10k`, mostly the kernel's loopback TCP send), which other processes on the
// machine disturb much less than they do the latencies.
// The side that is not measuring is idle (its server and clients use no CPU between its events), so the
// two sides run at once.

import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { IpcChild } from '../lib/children.mjs'
import { besideBaseline } from '../lib/figures.mjs'
import { openSession } from '../lib/service.mjs'

const script = (path) => fileURLToPath(new URL(path, import.meta.url))
const now = () => performance.timeOrigin + performance.now()

/** The child's clock minus ours, from the exchange with the shortest round trip. */
async function clockOffset(child) {
  let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 }
  for (let i = 0; i < 10; i++) {
    const sent = now()
    const { now: theirs } = await child.call('now')
    const received = now()
    if (received - sent < best.rtt)
      best = { rtt: received - sent, offset: theirs - (sent + received) / 2 }
  }
  return best.offset
}

const kb = (after, before, key) => (after[key] - before[key]) / 1024

/** One side: its server child, its clients child, and what it measured so far. */
async function side(name, serverScript) {
  const server = new IpcChild(script(serverScript), { execArgv: ['--expose-gc'] })
  const clients = new IpcChild(script('../load/channel-clients.mjs'))
  const [{ port }] = await Promise.all([server.ready, clients.ready])
  const skew = (await clockOffset(server)) - (await clockOffset(clients))
  return { name, server, clients, port, skew, rssKB: 0, liveKB: 0, open: 0, seq: 0 }
}

const memory = async (child) => {
  await sleep(300)
  return (await child.call('memory')).usage
}

export default {
  name: 'fanout',
  title: 'Event fan-out: memory per channel, one event to every channel (1,000 and 10,000)',
  order: 40,
  timeoutS: 180,
  baseline:
    'bare node:http server writing one line to every held response (bench/baselines/bare-chunked.mjs)',
  figures: [
    ...besideBaseline(
      'live1k',
      'live memory per idle channel, 1,000 open (JS heap + native)',
      'KB',
    ),
    ...besideBaseline('p99_1k', 'one event to 1,000 channels, p99', 'ms'),
    ...besideBaseline('kb10k', 'memory per idle channel, 10,000 open (RSS)', 'KB', {
      target: { on: 'median', op: '<=', value: 12, text: '≤ 12 KB' },
    }),
    ...besideBaseline('live10k', '  of which live (JS heap + native)', 'KB', {
      baselineLabel: '  bare node:http, live',
    }),
    ...besideBaseline('p50_10k', 'one event to 10,000 channels, p50', 'ms'),
    ...besideBaseline('p99_10k', 'one event to 10,000 channels, p99', 'ms', {
      target: { on: 'median', op: '<', value: 130, text: '< 130 ms' },
    }),
    ...besideBaseline('write10k', '  server: publish to last socket write(), 10,000', 'ms'),
    ...besideBaseline('cpu10k', '  server CPU for one event, 10,000 (user + system)', 'ms'),
  ],
  async run(ctx) {
    const sizes = ctx.scale(
      [
        { count: 1_000, suffix: '1k' },
        { count: 10_000, suffix: '10k' },
      ],
      [
        { count: 20, suffix: '1k' },
        { count: 100, suffix: '10k' },
      ],
    )
    const spacingMs = ctx.scale(200, 20)
    ctx.usedGenerator('raw net clients, own process')
    const service = await side('service', '../servers/channel-server.mjs')
    const bare = await side('bare', '../baselines/bare-chunked.mjs')
    const cookie = await openSession(service.port, 'alice')
    const publish = (s) => async () => {
      const started = performance.now()
      const mine = ++s.seq
      const before = await s.server.call('cpu')
      const [got, published] = await Promise.all([
        s.clients.call('expect', { seq: mine, timeoutMs: 15_000 }),
        s.server.call('publish', { seq: mine }),
      ])
      const { cpu } = await s.server.call('cpu')
      if (got.delivered < got.count)
        throw new Error(
          `${s.name}: event ${mine} reached ${got.delivered} of ${got.count} channels`,
        )
      await sleep(Math.max(0, spacingMs - (performance.now() - started)))
      return {
        ...(suffix === '10k' && {
          [`${s.name}.p50_10k`]: got.p50,
          [`${s.name}.write10k`]: published.flushedMs,
          [`${s.name}.cpu10k`]:
            (cpu.user - before.cpu.user + cpu.system - before.cpu.system) / 1000,
        }),
        [`${s.name}.p99_${suffix}`]: got.p99,
      }
    }
    let suffix = ''
    for (const size of sizes) {
      suffix = size.suffix
      const added = size.count - service.open
      const subscribed = performance.now()
      await service.clients.call('subscribe', { port: service.port, cookie, count: added }, 120_000)
      ctx.log(`${added} subscriptions in ${((performance.now() - subscribed) / 1000).toFixed(1)} s`)
      for (const s of [service, bare]) {
        const before = await memory(s.server)
        const { openMs } = await s.clients.call(
          'open',
          { port: s.port, count: added, afterSeq: s.seq },
          120_000,
        )
        const idle = await memory(s.server)
        s.rssKB += kb(idle, before, 'rss')
        // Live: the JS heap in use plus what lies outside the V8 heap; RSS also counts heap grown but free.
        s.liveKB +=
          kb(idle, before, 'heapUsed') + kb(idle, before, 'rss') - kb(idle, before, 'heapTotal')
        s.open = size.count
        ctx.log(
          `${s.name}: ${size.count} channels open (${added} in ${(openMs / 1000).toFixed(1)} s)`,
        )
        ctx.sample(`${s.name}.live${suffix}`, s.liveKB / size.count)
        if (size.suffix === '10k') ctx.sample(`${s.name}.kb10k`, s.rssKB / size.count)
      }
      const stats = await service.server.call('stats')
      if (stats.openChannels !== size.count)
        throw new Error(`the service counts ${stats.openChannels} open channels, not ${size.count}`)
      await ctx.interleave(
        { service: publish(service), bare: publish(bare) },
        { rounds: ctx.rounds(size.suffix === '1k' ? 10 : 15), warmup: ctx.scale(2, 0) },
      )
    }
    await sleep(ctx.scale(500, 50)) // late duplicates would show
    for (const s of [service, bare]) {
      const { incomplete, anomalies } = await s.clients.call('check')
      if (incomplete > 0 || anomalies.length > 0)
        throw new Error(`${s.name}: ${incomplete} channels incomplete; ${anomalies.join('; ')}`)
      if (Math.abs(s.skew) > 1)
        ctx.note(`${s.name}: clocks of server and clients differ by ${s.skew.toFixed(2)} ms`)
    }
    ctx.note(
      `every channel got every event exactly once, in order; the bare server sends the same ~500-byte line`,
    )
    await Promise.all([service, bare].flatMap((s) => [s.clients.exit(), s.server.exit()]))
  },
}
