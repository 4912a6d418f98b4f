// GET /healthz – liveness: 200 {"status":"ok"} while the process serves. No auth, no upstream call.
import { healthzResponse } from '@/lib/http/health'

export const dynamic = 'force-dynamic'

export const GET = healthzResponse
