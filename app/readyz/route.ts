// GET /readyz – readiness: 200 once every configured chain has been read and none is older than
// MAX_STALE_SECONDS; otherwise 503 naming the chains and why. No auth unless READYZ_AUTH=basic.
import { readyzResponse } from '@/lib/http/health'
import { serviceRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = serviceRoute(readyzResponse)
