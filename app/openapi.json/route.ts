// GET /openapi.json – the API's OpenAPI 3.1 document, generated from the zod schemas (lib/http/openapi.ts). Public.
import { openApiDocument } from '@/lib/http/openapi'

export const dynamic = 'force-static'

export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { 'cache-control': 'public, max-age=300' } })
}
