// GET /metrics – Prometheus text: requests by route and status, upstream reads by chain and result,
// cache outcomes, data age. Behind its own bearer token (METRICS_TOKEN; 404 without one), checked by
// the middleware and again here (fail closed); API keys do not open it.
import { metricsResponse } from '@/lib/http/metrics'

export const dynamic = 'force-dynamic'

export const GET = metricsResponse
