import { expect, test } from 'vitest'
import { count, metricsContentType, observeSeconds, renderMetrics } from '@/lib/metrics/registry'

test('behavior: Prometheus text format: HELP, TYPE, labelled samples, escaped label values, gauges', async () => {
  count('gas_api_requests_total', { route: 'unit-test', status: 200 })
  count('gas_api_requests_total', { route: 'unit-test', status: 200 })
  count('gas_api_requests_total', { route: 'unit "quoted"\\', status: 503 })
  const text = await renderMetrics([{ name: 'g', help: 'a gauge', labelNames: ['chain'], samples: [{ labels: { chain: 1 }, value: 2.5 }] }])
  expect(text).toContain('# HELP gas_api_requests_total ')
  expect(text).toContain('# TYPE gas_api_requests_total counter')
  expect(text).toContain('gas_api_requests_total{route="unit-test",status="200"} 2')
  expect(text).toContain('gas_api_requests_total{route="unit \\"quoted\\"\\\\",status="503"} 1')
  expect(text).toContain('# TYPE g gauge\ng{chain="1"} 2.5\n')
  expect(text.endsWith('\n')).toBe(true)
  expect(metricsContentType()).toMatch(/^text\/plain; version=0\.0\.4; charset=utf-8$/)
})

test('behavior: a gauge shows only the samples of the last scrape', async () => {
  await renderMetrics([{ name: 'g2', help: 'a gauge', labelNames: ['chain'], samples: [{ labels: { chain: 1 }, value: 1 }] }])
  const text = await renderMetrics([{ name: 'g2', help: 'a gauge', labelNames: ['chain'], samples: [{ labels: { chain: 2 }, value: 3 }] }])
  expect(text).toContain('g2{chain="2"} 3')
  expect(text).not.toContain('g2{chain="1"}')
})

test('behavior: request and upstream durations are histograms in seconds, by route and status, and by chain', async () => {
  observeSeconds('gas_api_request_duration_seconds', { route: 'unit-hist', status: 200 }, 0.003)
  observeSeconds('gas_api_request_duration_seconds', { route: 'unit-hist', status: 200 }, 0.2)
  observeSeconds('gas_api_upstream_read_duration_seconds', { chain: 99 }, 1.5)
  const text = await renderMetrics()
  expect(text).toContain('# TYPE gas_api_request_duration_seconds histogram')
  expect(text).toContain('gas_api_request_duration_seconds_bucket{le="0.005",route="unit-hist",status="200"} 1')
  expect(text).toContain('gas_api_request_duration_seconds_bucket{le="0.25",route="unit-hist",status="200"} 2')
  expect(text).toContain('gas_api_request_duration_seconds_count{route="unit-hist",status="200"} 2')
  expect(text).toContain('gas_api_upstream_read_duration_seconds_bucket{le="1",chain="99"} 0')
  expect(text).toContain('gas_api_upstream_read_duration_seconds_bucket{le="2.5",chain="99"} 1')
})

test('behavior: the default process metrics (event-loop lag, heap, GC) are in the same text, once', async () => {
  const text = await renderMetrics()
  for (const name of [
    'nodejs_eventloop_lag_seconds',
    'nodejs_heap_size_used_bytes',
    'nodejs_gc_duration_seconds',
    'process_cpu_seconds_total',
  ])
    expect(text.match(new RegExp(`^# TYPE ${name} `, 'gm'))).toHaveLength(1)
})

test('behavior: one registry per process, whichever copy of the module counts', async () => {
  const { vi } = await import('vitest')
  vi.resetModules()
  const other = await import('@/lib/metrics/registry')
  other.count('gas_api_requests_total', { route: 'unit-copy', status: 200 })
  expect(await renderMetrics()).toContain('gas_api_requests_total{route="unit-copy",status="200"} 1')
})
