// GET /networks/[chainId]/baseFeePercentile – the 50th-percentile base fee of the last 500 blocks, in gwei
import { feeEndpoint, methodNotAllowed, options } from '@/lib/http/respond'

export const dynamic = 'force-dynamic'

export const GET = feeEndpoint('baseFeePercentile')
export const OPTIONS = options
export const POST = methodNotAllowed
export const PUT = methodNotAllowed
export const PATCH = methodNotAllowed
export const DELETE = methodNotAllowed
