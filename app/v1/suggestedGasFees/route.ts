// GET /v1/suggestedGasFees?chainIds=1,8453 – each chain's GET /networks/{chainId}/suggestedGasFees body (or its
// JSON error body) keyed by decimal chain id, in the order asked; without chainIds every supported chain
import { multiChainRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = multiChainRoute('suggestedGasFees')
