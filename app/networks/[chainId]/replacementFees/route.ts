// GET /networks/[chainId]/replacementFees?maxFeePerGas=…&maxPriorityFeePerGas=… (or gasPrice=…) – the fees
// that replace a pending transaction (speed-up or cancel): the lowest every common pool accepts, and per level
import { replacementFeesRoute } from '@/lib/http/respond'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = replacementFeesRoute()
