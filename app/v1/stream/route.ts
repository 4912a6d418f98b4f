// GET /v1/stream?chainIds=1,8453 – Server-Sent Events for several chains: each chain's `fees` and `error` events
// as its /networks/{chainId}/stream sends them, with `chainId` in the data
import { multiChainRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'
// as the per-chain stream: the server ends each stream before Vercel's maxDuration (STREAM_MAX_SECONDS)
export const maxDuration = 300

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = multiChainRoute('stream')
