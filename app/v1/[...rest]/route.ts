// Any other path under /v1/ – a JSON 404 naming the /v1 endpoints (an API path never gets the HTML page)
import { NotFoundError } from '@/lib/core/contract/errors'
import { toErrorResponse } from '@/lib/http/error-answers'

export const dynamic = 'force-dynamic'

function notFound(): Response {
  return toErrorResponse(
    new NotFoundError('No such endpoint. Use /v1/suggestedGasFees, /v1/stream, /v1/supportedNetworks or /v1/supportedChainNames.'),
  )
}

export const GET = notFound
export const POST = notFound
export const PUT = notFound
export const PATCH = notFound
export const DELETE = notFound
