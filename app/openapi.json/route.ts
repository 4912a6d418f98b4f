// GET /openapi.json – the API's OpenAPI 3.1 document, generated from the zod schemas (lib/http/openapi.ts). Public.
// Dynamic: a static route's handlers get a stand-in request, which a write method's 405 reads.
import { openApiDocument } from '@/lib/http/openapi'
import { serviceRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

let body: string | undefined

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = serviceRoute(
  (): Response =>
    new Response((body ??= JSON.stringify(openApiDocument())), {
      headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=300' },
    }),
)
