// GET /readyz – readiness: 200 once every configured chain has been read and none is older than
// MAX_STALE_SECONDS; otherwise 503 naming the chains and why. No auth unless READYZ_AUTH=basic.
import { readyzResponse } from '@/lib/http/health'

export const dynamic = 'force-dynamic'

export const GET = readyzResponse
