// GET /networks/[chainId]/stream – Server-Sent Events: `event: fees` with `id: <block>` and the four
// endpoints' bodies for that block, at once and on every new window; `event: error` while the upstream fails.
import { apiRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'
// Vercel ends a function after maxDuration; the server ends each stream before it (STREAM_MAX_SECONDS,
// default 280) and the client reconnects
export const maxDuration = 300

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = apiRoute('stream')
