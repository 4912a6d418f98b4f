// GET /networks/[chainId]/replacementFees?maxFeePerGas=…&maxPriorityFeePerGas=… (or gasPrice=…) – the fees
// that replace a pending transaction (speed-up or cancel): the lowest every common pool accepts, and per level
import { apiRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = apiRoute('replacementFees')
