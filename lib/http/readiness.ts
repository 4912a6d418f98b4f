/** One configured chain's readiness, as /readyz reports it. */
export type ChainReadiness = {
  chainId: number
  ready: boolean
  /** Why not: no window was ever read, or the one held is past both its cache period and MAX_STALE_SECONDS. */
  reason?: 'never read' | 'stale'
  /** Seconds since the window held was read (whole seconds, rounded down). */
  ageSeconds?: number
  /** The held window's head block. */
  block?: number
  /** The error class of the last read, when it failed (never a message: those may name hosts). */
  error?: string
}

export type Readiness = { ready: boolean; chains: ChainReadiness[] }

/**
 * Readiness of the service: ready when at least one chain is configured and every one has a window the feed would
 * still serve (no older than its cache period or `maxStaleSeconds`, whichever is longer).
 * @param now ms since the epoch; windows' fetchedAt likewise; ttlMs the window's cache period
 */
export function assessReadiness(input: {
  chainIds: readonly number[]
  windows: readonly { chainId: number; fetchedAt: number; headNumber: number; ttlMs: number }[]
  errors: ReadonlyMap<number, string>
  now: number
  maxStaleSeconds: number
}): Readiness {
  const byChain = new Map(input.windows.map((w) => [w.chainId, w]))
  const chains = input.chainIds.map((chainId): ChainReadiness => {
    const w = byChain.get(chainId)
    const error = input.errors.get(chainId)
    if (!w) return { chainId, ready: false, reason: 'never read', ...(error ? { error } : {}) }
    const ageMs = Math.max(0, input.now - w.fetchedAt)
    const ageSeconds = Math.floor(ageMs / 1000)
    const fresh = ageMs < w.ttlMs || ageSeconds <= input.maxStaleSeconds
    return {
      chainId,
      ready: fresh,
      ...(fresh ? {} : { reason: 'stale' as const }),
      ageSeconds,
      block: w.headNumber,
      ...(error ? { error } : {}),
    }
  })
  return { ready: chains.length > 0 && chains.every((c) => c.ready), chains }
}

/** The 503 message: which chains are not ready, and why. */
export function describeUnready(r: Readiness): string {
  if (r.chains.length === 0) return 'Not ready: no chain is configured.'
  const parts = r.chains
    .filter((c) => !c.ready)
    .map((c) =>
      c.reason === 'stale'
        ? `chain ${c.chainId} stale for ${c.ageSeconds} s`
        : `chain ${c.chainId} never read${c.error ? ` (${c.error})` : ''}`,
    )
  return `Not ready: ${parts.join('; ')}.`
}
