// GET /healthz – liveness: 200 {"status":"ok"} while the process serves. No auth, no upstream call.
import { healthzResponse } from '@/lib/http/health'
import { serviceRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = serviceRoute(healthzResponse)
