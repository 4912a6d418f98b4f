// GET /networks/[chainId]/bench-floor-stream – the framework's floor for a stream open, behind the same
// gate as the API (an API path to the middleware, like /networks/[chainId]/stream): the stream route's SSE headers, a
// `retry:` line and a constant `fees` event at once, then the same event to every open floor stream every 2 s. No
// slots, no hub, no feed. Only in bench builds (`npm run bench:stream-burst -- --paths …`).
import { floorStream } from '../../../bench-floor/stream.bench'

export const dynamic = 'force-dynamic'

export async function GET(_request: Request, context: { params?: Promise<Record<string, string>> }): Promise<Response> {
  await context.params // like the endpoints, which read their dynamic segment
  return floorStream()
}
