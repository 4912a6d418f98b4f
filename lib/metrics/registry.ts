/**
 * The /metrics registry (prom-client), one per process: Next may load a route's bundle separately, and each
 * bundle would otherwise get its own copy of prom-client's module-global default registry (and count half the
 * requests).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { processSingleton } from '../runtime/process-singleton'

type Labels = Record<string, string | number>

const COUNTERS = {
  gas_api_requests_total: { help: 'API requests answered by the route handlers, by route and status.', labels: ['route', 'status'] },
  gas_api_upstream_reads_total: { help: 'Upstream reads (one JSON-RPC batch each), by chain and result.', labels: ['chain', 'result'] },
  gas_api_shared_reads_total: {
    help: 'With REDIS_URL: new fee windows by chain and source: joined (read by another instance), led (read by this one under the shared lock), local (read by this one without the shared store).',
    labels: ['chain', 'source'],
  },
  gas_api_rate_limit_checks_total: {
    help: "With REDIS_URL: rate-limit checks by store: shared (Redis) or local (this instance's memory while Redis is unreachable, slow or degraded).",
    labels: ['store'],
  },
  gas_api_cache_total: {
    help: 'Fee window lookups, by chain and outcome: hit (fresh), waited (the due read came within FEED_WAIT_MS), grace (answered from the window held while the due read runs), miss (no window young enough: waited for a read), failing (within the back-off after a failed read).',
    labels: ['chain', 'outcome'],
  },
  gas_api_stream_events_total: {
    help: 'Events sent on streams (GET /networks/{chainId}/stream), by chain and event (fees, error), one per subscriber.',
    labels: ['chain', 'event'],
  },
  gas_api_stream_closed_total: {
    help: 'Streams ended, by chain and reason: client (it went away), duration (STREAM_MAX_SECONDS reached), slow (dropped: more than STREAM_BUFFER_BYTES waited for it), shutdown (the process got SIGTERM or SIGINT).',
    labels: ['chain', 'reason'],
  },
} as const

const HISTOGRAMS = {
  gas_api_request_duration_seconds: {
    help: 'Time from the handler receiving an API request to its answer (headers; a stream counts until it opens), by route and status.',
    labels: ['route', 'status'],
  },
  gas_api_upstream_read_duration_seconds: {
    help: 'Duration of an upstream read (one JSON-RPC batch with its failover, as the feed waits for it), by chain.',
    labels: ['chain'],
  },
} as const

export type CounterName = keyof typeof COUNTERS
export type HistogramName = keyof typeof HISTOGRAMS

/** A gauge computed when /metrics is asked: name, help and its samples now. */
export type GaugeSnapshot = { name: string; help: string; labelNames: string[]; samples: { labels: Labels; value: number }[] }

type State = {
  registry: Registry
  counters: Map<string, Counter>
  histograms: Map<string, Histogram>
  gauges: Map<string, Gauge>
}

const state = processSingleton('metrics', (): State => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const counters = new Map<string, Counter>()
  for (const [name, c] of Object.entries(COUNTERS))
    counters.set(name, new Counter({ name, help: c.help, labelNames: [...c.labels], registers: [registry] }))
  const histograms = new Map<string, Histogram>()
  for (const [name, h] of Object.entries(HISTOGRAMS))
    histograms.set(name, new Histogram({ name, help: h.help, labelNames: [...h.labels], registers: [registry] }))
  return { registry, counters, histograms, gauges: new Map() }
})

/** Adds 1 to a counter. */
export function count(name: CounterName, labels: Labels): void {
  state.counters.get(name)!.inc(labels)
}

/** Records one duration, in seconds, in a histogram. */
export function observeSeconds(name: HistogramName, labels: Labels, seconds: number): void {
  state.histograms.get(name)!.observe(labels, seconds)
}

/**
 * Every series in Prometheus text exposition format (0.0.4), with the gauges given set to their
 * samples now (a gauge's old label sets, say a chain no longer held, are dropped).
 */
export async function renderMetrics(gauges: GaugeSnapshot[] = []): Promise<string> {
  for (const g of gauges) {
    let gauge = state.gauges.get(g.name)
    if (!gauge) {
      gauge = new Gauge({ name: g.name, help: g.help, labelNames: g.labelNames, registers: [state.registry] })
      state.gauges.set(g.name, gauge)
    }
    gauge.reset()
    for (const s of g.samples) gauge.set(s.labels, s.value)
  }
  return state.registry.metrics()
}

/** The Content-Type of renderMetrics' text. */
export function metricsContentType(): string {
  return state.registry.contentType
}
