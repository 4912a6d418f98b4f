import './zod-without-eval'
import { ErrorBodySchema, SuggestedGasFeesSchema, type SuggestedGasFees } from '@/lib/core/contract/schemas'
import { ApiError, type Freshness } from './api-client'

/** One chain's part of GET /v1/suggestedGasFees: its fees and their freshness, or the error it answered. */
export type ChainAnswer = { data: SuggestedGasFees; freshness: Freshness } | { error: ApiError }

/**
 * X-Chain-Freshness of a multi-chain answer (`1;block=21000000;age=3;interval=12000;stale=?0, 42161;status=503`):
 * each chain's entry by its id, `receivedAt` the browser's clock when it arrived (ms since the epoch).
 */
export function parseChainFreshness(header: string | null, receivedAt: number): Map<number, Freshness> {
  const out = new Map<number, Freshness>()
  for (const item of (header ?? '').split(',')) {
    const [id, ...params] = item.trim().split(';')
    const p = Object.fromEntries(params.map((kv) => kv.split('=') as [string, string]))
    if (p.block === undefined) continue
    out.set(Number(id), {
      blockNumber: Number(p.block),
      ageAtFetch: Number(p.age ?? 0),
      receivedAt,
      stale: p.stale === '?1',
      blockIntervalMs: Number(p.interval) || 2_000,
    })
  }
  return out
}

/**
 * GETs several chains' suggestedGasFees in one call (GET /v1/suggestedGasFees?chainIds=…) on this origin, each
 * validated with the server's own zod schemas; a chain that failed has its error in its place.
 * @throws ApiError when the call as a whole is refused (401, 429, …) or cannot be made
 */
export async function fetchSuggestedGasFeesOf(chainIds: number[]): Promise<Map<number, ChainAnswer>> {
  let res: Response
  try {
    res = await fetch(`/v1/suggestedGasFees?chainIds=${chainIds.join(',')}`, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { accept: 'application/json' },
    })
  } catch {
    throw new ApiError(0, 'The service could not be reached.')
  }
  const body: unknown = await res.json().catch(() => null)
  if (!res.ok) {
    const parsed = ErrorBodySchema.safeParse(body)
    const retry = Number(res.headers.get('retry-after'))
    throw new ApiError(res.status, parsed.success ? parsed.data.message : `HTTP ${res.status}`, retry > 0 ? retry : undefined)
  }
  const freshness = parseChainFreshness(res.headers.get('x-chain-freshness'), Date.now())
  const answers = new Map<number, ChainAnswer>()
  for (const id of chainIds) {
    const value = (body as Record<string, unknown> | null)?.[String(id)]
    const failed = ErrorBodySchema.safeParse(value)
    const fees = SuggestedGasFeesSchema.safeParse(value)
    const fresh = freshness.get(id)
    if (fees.success && fresh) answers.set(id, { data: fees.data, freshness: fresh })
    else if (failed.success) answers.set(id, { error: new ApiError(failed.data.statusCode, failed.data.message) })
    else answers.set(id, { error: new ApiError(res.status, 'The service answered with data of an unexpected shape.') })
  }
  return answers
}
