/**
 * In-process counters for /metrics (Prometheus text format 0.0.4), one set per process. The edge middleware runs in its own sandbox and cannot count
 * here, so requests it refuses (401) are not in these counters.
 */
import { processSingleton } from '../core/process-singleton'

type Labels = Record<string, string | number>
type Counter = { help: string; values: Map<string, number> }

const counters = processSingleton('metrics', () => new Map<string, Counter>())

const HELP = {
  gas_api_requests_total: 'API requests answered by the route handlers, by route and status.',
  gas_api_upstream_reads_total: 'Upstream reads (one JSON-RPC batch each), by chain and result.',
  gas_api_shared_reads_total:
    'With REDIS_URL: new fee windows by chain and source: joined (read by another instance), led (read by this one under the shared lock), local (read by this one without the shared store).',
  gas_api_rate_limit_checks_total:
    "Rate-limit checks by store: shared (Redis) or local (this instance's memory: no REDIS_URL, or Redis unreachable).",
  gas_api_cache_total:
    'Fee window lookups, by chain and outcome: hit (fresh), grace (served while the next read runs), miss (waited for a read), failing (within the back-off after a failed read).',
  gas_api_stream_events_total:
    'Events sent on streams (GET /networks/{chainId}/stream), by chain and event (fees, error), one per subscriber.',
  gas_api_stream_closed_total:
    'Streams ended, by chain and reason: client (it went away), duration (STREAM_MAX_SECONDS reached), slow (dropped: more than STREAM_BUFFER_BYTES waited for it).',
} satisfies Record<string, string>

const escape = (v: string | number) => String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
const labelText = (labels: Labels) =>
  Object.keys(labels).length
    ? `{${Object.entries(labels)
        .map(([k, v]) => `${k}="${escape(v)}"`)
        .join(',')}}`
    : ''

/** Adds 1 to a counter. */
export function count(name: keyof typeof HELP, labels: Labels): void {
  let c = counters.get(name)
  if (!c) counters.set(name, (c = { help: HELP[name], values: new Map() }))
  const key = labelText(labels)
  c.values.set(key, (c.values.get(key) ?? 0) + 1)
}

/** The counters and the given gauges in Prometheus text exposition format. */
export function renderMetrics(gauges: { name: string; help: string; samples: { labels: Labels; value: number }[] }[] = []): string {
  const lines: string[] = []
  for (const [name, c] of [...counters].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`# HELP ${name} ${c.help}`, `# TYPE ${name} counter`)
    for (const [labels, value] of c.values) lines.push(`${name}${labels} ${value}`)
  }
  for (const g of gauges) {
    lines.push(`# HELP ${g.name} ${g.help}`, `# TYPE ${g.name} gauge`)
    for (const s of g.samples) lines.push(`${g.name}${labelText(s.labels)} ${s.value}`)
  }
  return lines.join('\n') + '\n'
}
