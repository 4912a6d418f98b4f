import 'server-only'
import { getFeeReport, servedChains } from '../fees'
import { parseChainIdsQuery } from './chain-ids-query'
import { toErrorResponse } from './error-answers'
import { multiChainFreshnessHeaders, type ChainPart } from './freshness-headers'
import { guarded } from './guard'

/**
 * The chains a multi-chain request names (`chainIds`, in its order; without it every supported chain, by
 * ascending id), or the error that answers it (a 400 naming chainIds; a configuration error).
 */
export function chainsAsked(request: Request): number[] | Error {
  try {
    return (
      parseChainIdsQuery(new URL(request.url).searchParams) ??
      servedChains()
        .map((c) => c.chainId)
        .sort((a, b) => a - b)
    )
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err))
  }
}

/**
 * A guarded handler of a multi-chain route: the same identity check, quota (one unit per chain named; a bad
 * list costs one), errors and log line as a chain's route; `answer` gets the chains asked for.
 */
export function multiChainHandler(
  route: string,
  answer: (chainIds: number[], ctx: { key: string; request: Request }) => Promise<Response>,
) {
  return (request: Request): Promise<Response> => {
    const chains = chainsAsked(request)
    const cost = Array.isArray(chains) ? Math.max(1, chains.length) : 1
    return guarded(
      route,
      request,
      async (ctx) => {
        if (!Array.isArray(chains)) throw chains
        // the log line's chain: the list
        ctx.setChain(chains.join(','))
        return answer(chains, { key: ctx.key, request })
      },
      cost,
    )
  }
}

/** One chain's GET /networks/{chainId}/suggestedGasFees body, or the error body that route would answer. */
async function suggestedGasFeesOf(chainId: number): Promise<ChainPart & { body: string }> {
  try {
    const { bodies, meta } = await getFeeReport(chainId)
    return { chainId, meta, body: bodies.suggestedGasFees }
  } catch (err) {
    const res = toErrorResponse(err)
    return { chainId, status: res.status, body: await res.text() }
  }
}

/**
 * GET /v1/suggestedGasFees: each chain's suggestedGasFees body as its own route would serve it now (or its JSON
 * error body), keyed by decimal chain id in the order asked. The chains' windows are read in parallel, a cold one
 * once (its feed's single flight), so the call takes as long as its slowest chain.
 */
export async function multiSuggestedGasFees(chainIds: number[]): Promise<Response> {
  const parts = await Promise.all(chainIds.map(suggestedGasFeesOf))
  const body = `{${parts.map((p) => `"${p.chainId}":${p.body}`).join(',')}}`
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', ...multiChainFreshnessHeaders(parts) },
  })
}
