// GET /metrics – Prometheus text: requests by route and status, upstream reads by chain and result, cache
// outcomes, data age.
import { metricsResponse } from '@/lib/http/metrics'

export const dynamic = 'force-dynamic'

export const GET = metricsResponse
