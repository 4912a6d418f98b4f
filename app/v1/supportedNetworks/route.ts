// GET /v1/supportedNetworks – {"fullSupport": [chain ids], "partialSupport": {"optimism": [chain ids]}}, as
// MetaMask's gas API answers: OP-stack chains are partial (the client adds their L1 data fee)
import { apiRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = apiRoute('supportedNetworks')
