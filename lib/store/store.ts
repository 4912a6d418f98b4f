import 'server-only'
import { randomUUID } from 'node:crypto'
import type { FeeWindow } from '../core/types'
import { UNAVAILABLE, type Unavailable } from '../runtime/unavailable'
import { withSharedStore } from './client'

/** Bump with the FeeWindow shape, so instances of different versions never read each other's windows. */
const PREFIX = 'gas-api:v4:'

/** Deletes the lock only if it still holds our token (a lock that expired and was retaken is not ours). */
const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
/** Our own JSON (PREFIX carries the version); checked for shape only, against a foreign writer. */
const isWindow = (v: unknown, chainId: number): v is FeeWindow => {
  const w = v as FeeWindow | null
  return (
    typeof w === 'object' &&
    w !== null &&
    w.chainId === chainId &&
    Number.isSafeInteger(w.headNumber) &&
    Number.isFinite(w.fetchedAt) &&
    Array.isArray(w.baseFeePerGas) &&
    Array.isArray(w.reward) &&
    Array.isArray(w.gasUsedRatio)
  )
}

/** The last window any instance read for the chain from the same nodes (`scope`: lib/feed sourceScope), or null. */
export function getSharedWindow(chainId: number, scope: string): Promise<FeeWindow | null | Unavailable> {
  return withSharedStore(async (redis) => {
    const text = await redis.get(`${PREFIX}window:${chainId}:${scope}`)
    if (text === null) return null
    const value: unknown = JSON.parse(text)
    return isWindow(value, chainId) ? value : null
  })
}

/** Publishes a window for the other instances; it expires after `ttlMs`. */
export async function putSharedWindow(chainId: number, scope: string, window: FeeWindow, ttlMs: number): Promise<void> {
  await withSharedStore((redis) =>
    redis.set(`${PREFIX}window:${chainId}:${scope}`, JSON.stringify(window), {
      expiration: { type: 'PX', value: Math.max(1, Math.round(ttlMs)) },
    }),
  )
}

/**
 * Takes the chain's read lock (SET NX PX) for at most `ttlMs`.
 * @returns the token to release it with, null when another instance holds it, or UNAVAILABLE
 */
export async function lockChainRead(chainId: number, ttlMs: number): Promise<string | null | Unavailable> {
  const token = randomUUID()
  const result = await withSharedStore(async (redis) => {
    const ok = await redis.set(`${PREFIX}lock:${chainId}`, token, {
      condition: 'NX',
      expiration: { type: 'PX', value: Math.max(1, Math.round(ttlMs)) },
    })
    return ok === 'OK' ? token : null
  })
  // a SET that timed out here may still have run in Redis: release it, or the others would wait
  // for a lock nobody holds
  if (result === UNAVAILABLE) void unlockChainRead(chainId, token)
  return result
}

/** Releases the lock if it still holds `token`; sent even while this instance is degraded. */
export async function unlockChainRead(chainId: number, token: string): Promise<void> {
  await withSharedStore((redis) => redis.eval(RELEASE_SCRIPT, { keys: [`${PREFIX}lock:${chainId}`], arguments: [token] }), {
    evenIfDegraded: true,
  })
}
