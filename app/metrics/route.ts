// GET /metrics – Prometheus text: requests by route and status, upstream reads by chain and result,
// cache outcomes, data age. Behind the same Basic auth as the API, and refused without the identity
// the middleware forwards (fail closed).
import { metricsResponse } from '@/lib/http/metrics'

export const dynamic = 'force-dynamic'

export const GET = metricsResponse
