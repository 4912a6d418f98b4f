import { expect, test } from 'vitest'
import { count, renderMetrics } from '@/lib/metrics/registry'

test('behavior: Prometheus text format: HELP, TYPE, labelled samples, escaped label values, gauges', () => {
  count('gas_api_requests_total', { route: 'unit-test', status: 200 })
  count('gas_api_requests_total', { route: 'unit-test', status: 200 })
  count('gas_api_requests_total', { route: 'unit "quoted"\\', status: 503 })
  const text = renderMetrics([{ name: 'g', help: 'a gauge', samples: [{ labels: { chain: 1 }, value: 2.5 }] }])
  expect(text).toContain('# HELP gas_api_requests_total ')
  expect(text).toContain('# TYPE gas_api_requests_total counter')
  expect(text).toContain('gas_api_requests_total{route="unit-test",status="200"} 2')
  expect(text).toContain('gas_api_requests_total{route="unit \\"quoted\\"\\\\",status="503"} 1')
  expect(text).toContain('# TYPE g gauge\ng{chain="1"} 2.5\n')
  expect(text.endsWith('\n')).toBe(true)
})
