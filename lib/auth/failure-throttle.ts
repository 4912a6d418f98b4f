import { processSingleton } from '../runtime/process-singleton'

/** One throttle window: failures are counted for 60 s from the first. */
export const FAILURE_WINDOW_MS = 60_000
/** The per-instance ceiling, as a multiple of the per-address limit: past it failures are 429s (valid credentials still pass). */
export const INSTANCE_CEILING_FACTOR = 10
/** Addresses remembered at most; past it, finished windows are dropped, then the oldest (the ceiling still holds). */
const MAX_ADDRESSES = 10_000

type Window = { failures: number; endsAt: number }
type Throttle = { byAddress: Map<string, Window>; instance: Window }

const state = processSingleton('auth-failure-throttle', (): Throttle => ({ byAddress: new Map(), instance: { failures: 0, endsAt: 0 } }))

const current = (w: Window | undefined, now: number) => (w && now < w.endsAt ? w : undefined)

/**
 * Whether `address` may attempt to authenticate now: not when it has `limit` failures in its
 * window. Per process (on the edge runtime: per middleware instance). `limit` 0: always.
 * @returns null, or the seconds until its window ends (for Retry-After)
 */
export function addressBlocked(address: string | null, limit: number, now = Date.now()): number | null {
  if (limit === 0 || address === null) return null
  const own = current(state.byAddress.get(address), now)
  return own && own.failures >= limit ? Math.max(1, Math.ceil((own.endsAt - now) / 1000)) : null
}

/**
 * Whether this instance has had `limit × INSTANCE_CEILING_FACTOR` failures in its window (from any addresses:
 * they can be forged without a trusted proxy).
 * @returns null, or the seconds until the window ends
 */
export function instanceBlocked(limit: number, now = Date.now()): number | null {
  if (limit === 0) return null
  const instance = current(state.instance, now)
  return instance && instance.failures >= limit * INSTANCE_CEILING_FACTOR ? Math.max(1, Math.ceil((instance.endsAt - now) / 1000)) : null
}

/** Counts one failed authentication from `address` (null: an address that cannot be known) and for the instance. */
export function recordAuthFailure(address: string | null, now = Date.now()): void {
  if (!current(state.instance, now)) state.instance = { failures: 0, endsAt: now + FAILURE_WINDOW_MS }
  state.instance.failures++
  if (address === null) return
  const { byAddress } = state
  let own = current(byAddress.get(address), now)
  if (!own) {
    if (byAddress.size >= MAX_ADDRESSES) {
      for (const [a, w] of byAddress) if (now >= w.endsAt) byAddress.delete(a)
      // then the oldest window, one at a time: never every address's count at once
      const oldest = byAddress.keys().next()
      if (byAddress.size >= MAX_ADDRESSES && !oldest.done) byAddress.delete(oldest.value)
    }
    own = { failures: 0, endsAt: now + FAILURE_WINDOW_MS }
    byAddress.set(address, own)
  }
  own.failures++
}

/** Forgets every count (tests). */
export function resetAuthFailures(): void {
  state.byAddress.clear()
  state.instance = { failures: 0, endsAt: 0 }
}
