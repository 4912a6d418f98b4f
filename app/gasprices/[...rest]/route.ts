// Any other path under /gasprices/ – a JSON 404 naming Blocknative's two endpoints
import { NotFoundError } from '@/lib/core/contract/errors'
import { toErrorResponse } from '@/lib/http/error-answers'

export const dynamic = 'force-dynamic'

function notFound(): Response {
  return toErrorResponse(new NotFoundError('No such endpoint. Use /gasprices/blockprices or /gasprices/basefee-estimates.'))
}

export const GET = notFound
export const POST = notFound
export const PUT = notFound
export const PATCH = notFound
export const DELETE = notFound
