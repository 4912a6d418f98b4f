// GET /metrics – Prometheus text: requests by route and status, upstream reads by chain and result, cache
// outcomes, data age.
import { metricsResponse } from '@/lib/http/metrics'
import { serviceRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = serviceRoute(metricsResponse)
