// GET /metrics – Prometheus text: requests by route and status, upstream reads by chain and result,
// cache outcomes, data age. Behind the same Basic auth as the API (the middleware matches it).
import { metricsText } from '@/lib/metrics/exposition'

export const dynamic = 'force-dynamic'

export function GET(): Response {
  return new Response(metricsText(), {
    headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
  })
}
