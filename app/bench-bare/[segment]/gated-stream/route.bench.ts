// GET /bench-bare/[segment]/gated-stream – the stream of chain <segment> with the gate run inside the route instead
// of by Next's middleware machinery (the matcher leaves /bench-bare/ out): what an open would cost if streams skipped
// it. middleware.ts's own function judges a request for /networks/<segment>/stream; what it passes on is applied as
// Next applies it (the request headers it sets, its response headers) and the stream route answers. Only in bench builds.
import { NextRequest } from 'next/server'
// eslint-disable-next-line import/no-restricted-paths -- bench only: this route measures the gate run by a route
import { middleware } from '@/middleware'
import { GET as streamGET } from '../../../networks/[chainId]/stream/route'

export const dynamic = 'force-dynamic'

const PASSED = 'x-middleware-next'
const OVERRIDDEN = 'x-middleware-override-headers'
const REQUEST_HEADER = 'x-middleware-request-'

export async function GET(request: NextRequest, context: { params: Promise<{ segment: string }> }): Promise<Response> {
  const { segment } = await context.params
  const url = new URL(`/networks/${segment}/stream${request.nextUrl.search}`, request.url)
  const verdict = await middleware(new NextRequest(url, { headers: request.headers, signal: request.signal }))
  if (verdict.headers.get(PASSED) !== '1') return verdict
  const overridden = verdict.headers.get(OVERRIDDEN)
  const headers = overridden === null ? new Headers(request.headers) : new Headers()
  for (const name of overridden?.split(',') ?? []) headers.set(name, verdict.headers.get(REQUEST_HEADER + name) ?? '')
  const answer = await streamGET(new NextRequest(url, { headers, signal: request.signal }), {
    params: Promise.resolve({ chainId: segment }),
  })
  for (const [name, value] of verdict.headers) {
    if (!name.startsWith('x-middleware-')) answer.headers.set(name, value)
  }
  return answer
}
