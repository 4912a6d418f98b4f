// GET /networks/[chainId]/baseFeeHistory – the base fees of the last 500 blocks, oldest first, in gwei
import { feeEndpoint, methodNotAllowed, options } from '@/lib/http/respond'

export const dynamic = 'force-dynamic'

export const GET = feeEndpoint('baseFeeHistory')
export const OPTIONS = options
export const POST = methodNotAllowed
export const PUT = methodNotAllowed
export const PATCH = methodNotAllowed
export const DELETE = methodNotAllowed
