import 'server-only'
import { IDENTITY_HEADER, isKeyless, logName, verifyIdentity } from '../auth/identity'
import { getIdentitySetting } from '../env'
import { UnauthenticatedError } from '../core/contract/errors'
import { consumeRateLimit } from '../ratelimit'
import { toErrorResponse } from './error-answers'
import { observe } from './observe'

export type RouteContext = { params: Promise<{ chainId: string }> }

/**
 * The caller the middleware verified, from its signed header: a key's name (API_KEYS or PUBLIC_API_KEYS), or
 * the keyless tier's `public:<address>` (lib/auth/identity.ts keylessIdentity).
 * @throws UnauthenticatedError (401)
 */
export async function requireIdentity(request: Request): Promise<string> {
  const key = await verifyIdentity(request.headers.get(IDENTITY_HEADER), getIdentitySetting())
  if (key === null) throw new UnauthenticatedError()
  return key
}

/**
 * What every API answer shares: the identity check and the rate limit first, then `answer`; an error
 * becomes its status and JSON body; the rate-limit headers and the log line go on either. `key` is the
 * caller's identity (per-key stream slots count by it); the log names the keyless tier `public`. `cost`: the
 * request's units of quota (a multi-chain route's: one per chain it names; default 1).
 */
export async function guarded(
  route: string,
  request: Request,
  answer: (ctx: { key: string; setChain(chainId: string): void }) => Promise<Response>,
  cost = 1,
): Promise<Response> {
  const started = performance.now()
  let limits: Record<string, string> = {}
  let chainId: string | undefined
  let key: string | undefined
  let res: Response
  try {
    key = await requireIdentity(request)
    limits = await consumeRateLimit(key, isKeyless(key) ? 'public' : 'key', cost)
    res = await answer({ key, setChain: (c) => (chainId = c) })
  } catch (err) {
    res = toErrorResponse(err)
  }
  for (const [k, v] of Object.entries(limits)) res.headers.set(k, v)
  return observe(route, request, started, res, chainId, key === undefined ? undefined : logName(key))
}
