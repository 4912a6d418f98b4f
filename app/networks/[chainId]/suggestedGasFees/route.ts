// GET /networks/[chainId]/suggestedGasFees – EIP-1559 fee suggestions for the low, medium and high urgency levels
import { apiRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = apiRoute('suggestedGasFees')
