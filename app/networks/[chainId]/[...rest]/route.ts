// Any other path under /networks/[chainId]/ – a JSON 404 naming the chain's endpoints
import { NotFoundError } from '@/lib/core/contract/errors'
import { toErrorResponse } from '@/lib/http/error-answers'

export const dynamic = 'force-dynamic'

function notFound(): Response {
  return toErrorResponse(
    new NotFoundError(
      'No such endpoint. Use suggestedGasFees, busyThreshold, baseFeePercentile, baseFeeHistory, baseFeeForecast, gasPrices, replacementFees, blobFees, accuracy or stream.',
    ),
  )
}

export const GET = notFound
export const POST = notFound
export const PUT = notFound
export const PATCH = notFound
export const DELETE = notFound
