import 'server-only'
import { probeChains } from '../fees'
import { getServerEnv } from '../env'
import { assessReadiness, describeUnready } from './readiness'
import type { NotReadyBody, ReadyBody } from '../core/contract/schemas'
import { errorJson } from './error-body'
import { toErrorResponse } from './error-answers'
import { requireIdentity } from './guard'

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }

/** GET /healthz: liveness. The process serves: 200, with no upstream call and no configuration read. */
export function healthzResponse(): Response {
  return new Response(JSON.stringify({ status: 'ok' }), { status: 200, headers: JSON_HEADERS })
}

/**
 * GET /readyz: readiness. 200 when every configured chain has a window no older than MAX_STALE_SECONDS
 * (asking the feed for each as a request would, see probeChains); otherwise 503 with the error body and
 * `chains` naming each chain's state.
 */
export async function readyzResponse(request: Request): Promise<Response> {
  try {
    if (getServerEnv().READYZ_AUTH === 'basic') await requireIdentity(request)
    const readiness = assessReadiness({ ...(await probeChains()), now: Date.now(), maxStaleSeconds: getServerEnv().MAX_STALE_SECONDS })
    // the bodies are typed by the schemas GET /openapi.json publishes
    if (readiness.ready) {
      const body: ReadyBody = { status: 'ready', chains: readiness.chains }
      return new Response(JSON.stringify(body), { status: 200, headers: JSON_HEADERS })
    }
    const extra: Pick<NotReadyBody, 'chains'> = { chains: readiness.chains }
    return errorJson(503, describeUnready(readiness), { 'retry-after': '5' }, extra)
  } catch (err) {
    return toErrorResponse(err)
  }
}
