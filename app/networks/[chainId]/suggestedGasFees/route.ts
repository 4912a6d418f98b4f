// GET /networks/[chainId]/suggestedGasFees – EIP-1559 fee suggestions for the low, medium and high urgency levels
import { feeEndpoint, methodNotAllowed, options } from '@/lib/http/respond'

export const dynamic = 'force-dynamic'

export const GET = feeEndpoint('suggestedGasFees')
export const OPTIONS = options
export const POST = methodNotAllowed
export const PUT = methodNotAllowed
export const PATCH = methodNotAllowed
export const DELETE = methodNotAllowed
