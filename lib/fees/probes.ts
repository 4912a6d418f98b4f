import 'server-only'
/** What /metrics and /readyz read of the chains: the windows this process holds, and a probe of every chain. */
import { heldWindows } from '../feed/feeds'
import { getChains } from '../chains/registry'
import { probeWindow } from './served-window'

/** Per chain, the head, read time and fresh period (ms) of the window this process holds (for /metrics and /readyz). */
export function cachedWindows(): { chainId: number; headNumber: number; headTimestamp: number; fetchedAt: number; ttlMs: number }[] {
  return heldWindows().map(({ chain, window, periodMs }) => ({
    chainId: chain.id,
    headNumber: window.headNumber,
    headTimestamp: window.headTimestamp,
    fetchedAt: window.fetchedAt,
    ttlMs: periodMs,
  }))
}

/**
 * What readiness (/readyz) is judged on: every chain's window, as a request gets it but without warming the chain
 * (a load balancer's probes would otherwise keep every chain read).
 */
export async function probeChains(): Promise<{
  chainIds: number[]
  windows: ReturnType<typeof cachedWindows>
  errors: Map<number, string>
}> {
  const chains = [...getChains().values()]
  const results = await Promise.allSettled(chains.map((c) => probeWindow(c)))
  const errors = new Map<number, string>()
  results.forEach((r, i) => {
    if (r.status === 'rejected') errors.set(chains[i]!.id, r.reason instanceof Error ? r.reason.name : 'Error')
  })
  return { chainIds: chains.map((c) => c.id), windows: cachedWindows(), errors }
}
