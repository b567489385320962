/**
 * The node's Prometheus metrics (docs/operations.md, "Metrics"), one registry per started service: tests start many
 * services in one process, and each node of a cluster reports its own. The control plane serves them at `/metrics`.
 *
 * Nothing here runs on the hot paths but what they must: a request costs one histogram observation, its series
 * resolved once per route, method and status (resolved-histogram.ts); an event, one addition to a plain number
 * (DeliveryCounts). The
 * counts the service already keeps (sessions, subscriptions, channels, queued events, calls) are read when
 * Prometheus scrapes, not kept twice.
 */
import { performance } from 'node:perf_hooks'
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client'
import { DeliveryCounts } from '../delivery/delivery-counts.js'
import type {
  EngineCommandOutcome,
  EngineMetrics,
  LockedKey,
  LoginMetrics,
  LoginRefusal,
} from '../platform/platform-metrics.js'
import { type HistogramSeries, ResolvedHistogram } from './resolved-histogram.js'

/** The route label of requests that matched no route (404, 405): one value, whatever their paths. */
export const UNMATCHED_ROUTE = 'unmatched'

/** Requests take from well under a millisecond (a read) to seconds (a command waiting for its engine). */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
/** A command runs in microseconds; its batch's save takes a millisecond on SQLite, a few on PostgreSQL. */
const COMMAND_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

/** What the gauges read when scraped: the counts the service keeps anyway. */
export interface MetricSources {
  openSessions(): Promise<number>
  subscriptions(): number
  openChannels(): number
  queuedEvents(): number
  callsInProgress(): number
}

/** The request series of one route, by status and method, each resolved on its first request. */
export class RouteTimings {
  private readonly byStatus = new Map<number, Map<string, HistogramSeries>>()

  constructor(
    private readonly histogram: ResolvedHistogram<'route' | 'method' | 'status'>,
    private readonly route: string,
  ) {}

  observe(method: string, status: number, seconds: number): void {
    let byMethod = this.byStatus.get(status)
    if (byMethod === undefined) {
      byMethod = new Map()
      this.byStatus.set(status, byMethod)
    }
    let series = byMethod.get(method)
    if (series === undefined) {
      series = this.histogram.series({ route: this.route, method, status: String(status) })
      byMethod.set(method, series)
    }
    series.observe(seconds)
  }
}

/** Options of the metrics. */
export interface ServiceMetricsOptions {
  /**
   * Adds prom-client's metrics of the process (CPU, memory, event loop delay, garbage collection): main.ts does;
   * tests do not, since they watch the event loop and the collector for as long as the process lives.
   */
  processMetrics?: boolean
}

export class ServiceMetrics implements LoginMetrics, EngineMetrics {
  readonly registry = new Registry()
  /** Added to by the chunk channels and webhook senders; read when scraped. */
  readonly delivery = new DeliveryCounts()
  private readonly requests: ResolvedHistogram<'route' | 'method' | 'status'>
  private readonly commands: ResolvedHistogram<'command' | 'outcome'>
  private readonly loginFailures: Counter<'reason'>
  private readonly locks: Counter<'key'>
  private sources: MetricSources | undefined

  constructor(options: ServiceMetricsOptions = {}) {
    const registers = [this.registry]
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry })
    this.requests = new ResolvedHistogram(this.registry, {
      name: 'openness_http_request_duration_seconds',
      help: 'Requests of the public API by route pattern, method and status: time to the last byte of the answer',
      labelNames: ['route', 'method', 'status'],
      buckets: REQUEST_BUCKETS,
    })
    this.commands = new ResolvedHistogram(this.registry, {
      name: 'openness_engine_command_duration_seconds',
      help: 'Commands the call engine ran on this node, by type and outcome: time until stored and published',
      labelNames: ['command', 'outcome'],
      buckets: COMMAND_BUCKETS,
    })
    this.loginFailures = new Counter({
      name: 'openness_login_failures_total',
      help: 'Refused logins: bad credentials, or a login name or client address locked',
      labelNames: ['reason'],
      registers,
    })
    this.locks = new Counter({
      name: 'openness_login_locks_total',
      help: 'Locks of a login name or a client address after repeated login failures',
      labelNames: ['key'],
      registers,
    })
    this.deliveryCounters()
    this.gauges()
  }

  /** The content type of `scrape()`: Prometheus' text format 0.0.4. */
  get contentType(): string {
    return this.registry.contentType
  }

  /** Where the gauges read from, once the service is assembled; until then they read 0. */
  readFrom(sources: MetricSources): void {
    this.sources = sources
  }

  /** The series of requests that matched `route` (a route pattern), or none (UNMATCHED_ROUTE). */
  routeTimings(route: string): RouteTimings {
    return new RouteTimings(this.requests, route)
  }

  /** Every metric in Prometheus' text format. */
  scrape(): Promise<string> {
    return this.registry.metrics()
  }

  loginRefused(reason: LoginRefusal): void {
    this.loginFailures.inc({ reason: reason === 'LOCKED' ? 'locked' : 'bad_credentials' })
  }

  keyLocked(kind: LockedKey): void {
    this.locks.inc({ key: kind })
  }

  engineCommandStarted(type: string): (outcome: EngineCommandOutcome) => void {
    const start = performance.now()
    return (outcome) => {
      const seconds = (performance.now() - start) / 1000
      this.commands.series({ command: type, outcome }).observe(seconds)
    }
  }

  /** The delivery's plain counts, as counters when scraped. */
  private deliveryCounters(): void {
    const counts = this.delivery
    const counter = (name: string, help: string, read: (outlet: Outlet) => number) =>
      new Counter({
        name,
        help,
        labelNames: ['outlet'],
        registers: [this.registry],
        collect() {
          // The counts only grow: each scrape sets the counters to them.
          this.reset()
          this.inc({ outlet: 'channel' }, read('channel'))
          this.inc({ outlet: 'webhook' }, read('webhook'))
        },
      })
    counter(
      'openness_events_delivered_total',
      'Events written on a chunk channel, or taken by a webhook receiver, on this node',
      (outlet) => (outlet === 'channel' ? counts.channelDelivered : counts.webhookDelivered),
    )
    counter(
      'openness_events_lost_total',
      'Events that loss notices announced lost on this node (a full queue, a webhook given up)',
      (outlet) => (outlet === 'channel' ? counts.channelLost : counts.webhookLost),
    )
  }

  /** The gauges, each read from the service when scraped (0 until `readFrom`). */
  private gauges(): void {
    const sourcesOf = () => this.sources
    const gauge = (
      name: string,
      help: string,
      read: (sources: MetricSources) => number | Promise<number>,
    ) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          const sources = sourcesOf()
          if (sources !== undefined) this.set(await read(sources))
        },
      })
    gauge(
      'openness_sessions_open',
      'Open sessions (in a cluster, of the whole cluster)',
      (sources) => sources.openSessions(),
    )
    gauge(
      'openness_subscriptions',
      'Subscriptions (in a cluster, of the whole cluster: every node routes all)',
      (sources) => sources.subscriptions(),
    )
    gauge('openness_channels_open', 'Chunk channels open on this node', (sources) =>
      sources.openChannels(),
    )
    gauge(
      'openness_events_queued',
      'Events waiting on this node for a channel or a webhook',
      (sources) => sources.queuedEvents(),
    )
    gauge(
      'openness_calls_in_progress',
      'Calls the engine holds (in a cluster, of the whole cluster)',
      (sources) => sources.callsInProgress(),
    )
  }
}

type Outlet = 'channel' | 'webhook'
