// /v3/<key>/<read path> – Infura's form: middleware.ts verified the key in the path; the answer is exactly the read path's
import { blocknativeRoute } from '@/lib/blocknative/routes'
import { NotFoundError } from '@/lib/core/contract/errors'
import { toErrorResponse } from '@/lib/http/error-answers'
import { catalogRouteNamed, chainRouteNamed, type KeyPathHandlers } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

type Context = { params: Promise<{ key: string; path: string[] }> }
type Method = keyof KeyPathHandlers

/** The read path's route and the chain id its handlers get, or null (a path that leads nowhere). */
function routeOf(path: string[]): { route: KeyPathHandlers; chainId: string } | null {
  const [head, second, third, ...more] = path
  if (more.length > 0) return null
  if (head === 'networks' && second !== undefined && third !== undefined) {
    const route = chainRouteNamed(third)
    return route && { route, chainId: second }
  }
  if (third !== undefined) return null
  if (head === 'v1' && second !== undefined) return wrap(catalogRouteNamed(second))
  if (head === 'gasprices' && (second === 'blockprices' || second === 'basefee-estimates')) return wrap(blocknativeRoute(second))
  if (head === 'chains' && second === undefined) return wrap(blocknativeRoute('chains'))
  return null
}

const wrap = (route: KeyPathHandlers | null) => route && { route, chainId: '' }

/** Never names the key: it is the caller's credential. */
const notFound = () =>
  toErrorResponse(
    new NotFoundError('No such endpoint: /v3/<API key>/ leads to /networks/<chainId>/<endpoint>, /v1/…, /gasprices/… and /chains.'),
  )

function handler(method: Method) {
  return async (request: Request, context: Context): Promise<Response> => {
    const found = routeOf((await context.params).path)
    // HEAD is GET without a body, as Next answers it on the read path itself
    const handle = found?.route[method] ?? (method === 'HEAD' ? found?.route.GET : undefined)
    if (!found || !handle) return notFound()
    return handle(request, { params: Promise.resolve({ chainId: found.chainId }) })
  }
}

export const GET = handler('GET')
export const HEAD = handler('HEAD')
export const OPTIONS = handler('OPTIONS')
export const POST = handler('POST')
export const PUT = handler('PUT')
export const PATCH = handler('PATCH')
export const DELETE = handler('DELETE')
