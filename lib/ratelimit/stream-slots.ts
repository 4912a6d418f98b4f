import 'server-only'
import { getServerEnv } from '../env'
import { StreamCapacityError, TooManyStreamsError } from '../core/contract/errors'
import { processSingleton } from '../runtime/process-singleton'
import { sharedStoreDegraded, withSharedStore } from '../store/client'
import { UNAVAILABLE } from '../runtime/unavailable'

/**
 * Stream slots: how many streams may be open at once, per scope. A stream takes one slot in each of its scopes
 * (its caller's; for the keyless tier also the tier's total; always this instance's total) or none. Counted in this
 * instance's memory, and with REDIS_URL in Redis too for the scopes `shared` marks, as leases that expire
 * LEASE_MS after their last refresh (an instance that dies frees its slots within it); while Redis is
 * unreachable, this instance's own counts decide.
 */

/** One ceiling a stream counts against: `name` (a caller, a tier, the instance) and its `limit`. */
export type SlotScope = { name: string; limit: number; shared: boolean }

/** A lease outlives its last refresh by this long, ms; refreshed every LEASE_MS / 3. */
const LEASE_MS = 60_000
const PREFIX = 'gas-api:stream-slots:'

const state = processSingleton('stream-slots', () => ({
  counts: new Map<string, number>(),
  /** Leases this instance holds in Redis: slot id → its shared scopes' keys. */
  leases: new Map<string, string[]>(),
  next: 0,
  instance: crypto.randomUUID(),
  refresher: undefined as ReturnType<typeof setInterval> | undefined,
}))

// KEYS: the scopes' sorted sets; ARGV: now, lease end, slot id, then each scope's limit. Drops expired leases, then
// takes a slot in every scope, or in none: returns 0, or the 1-based index of the first full scope.
const ACQUIRE = `
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[1])
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[3 + i]) then return i end
end
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[i], ${LEASE_MS * 2})
end
return 0`

/** A taken set of slots, or the scope that was full. */
export type SlotGrant = { ok: true; release(): void } | { ok: false; scope: SlotScope }

function countDown(names: string[]) {
  for (const n of names) {
    const v = (state.counts.get(n) ?? 1) - 1
    if (v <= 0) state.counts.delete(n)
    else state.counts.set(n, v)
  }
}

/**
 * Takes one slot in each scope (all or none).
 * @returns a grant whose release() frees them (idempotent), or the first scope that is full
 */
export async function acquireStreamSlots(scopes: SlotScope[]): Promise<SlotGrant> {
  const shared = scopes.filter((s) => s.shared)
  const useRedis = getServerEnv().REDIS_URL !== undefined && shared.length > 0 && !sharedStoreDegraded()
  // the instance's own counts decide the scopes that are not shared, and all of them while Redis is not in use
  const full = (all: boolean) => scopes.find((s) => (all || !s.shared) && (state.counts.get(s.name) ?? 0) >= s.limit)
  const localFull = full(!useRedis)
  if (localFull) return { ok: false, scope: localFull }
  // taken now, before any await: concurrent opens see each other
  const names = scopes.map((s) => s.name)
  for (const n of names) state.counts.set(n, (state.counts.get(n) ?? 0) + 1)
  const id = `${state.instance}:${state.next++}`
  const keys = shared.map((s) => PREFIX + s.name)
  if (useRedis) {
    const now = Date.now()
    const answer = await withSharedStore((redis) =>
      redis.eval(ACQUIRE, { keys, arguments: [String(now), String(now + LEASE_MS), id, ...shared.map((s) => String(s.limit))] }),
    )
    const refused = answer === UNAVAILABLE ? fullBeforeThis(scopes) : Number(answer) > 0 ? shared[Number(answer) - 1] : undefined
    if (refused) {
      countDown(names)
      return { ok: false, scope: refused }
    }
    if (answer !== UNAVAILABLE) {
      state.leases.set(id, keys)
      startRefresher()
    }
  }
  let released = false
  return {
    ok: true,
    release() {
      if (released) return
      released = true
      countDown(names)
      const leased = state.leases.get(id)
      if (!leased) return
      state.leases.delete(id)
      void withSharedStore((redis) => Promise.all(leased.map((k) => redis.zRem(k, id))), { evenIfDegraded: true })
    },
  }
}

/** With Redis unreachable: the first scope this instance already held full before the slot it just took. */
const fullBeforeThis = (scopes: SlotScope[]) => scopes.find((s) => (state.counts.get(s.name) ?? 0) > s.limit)

/**
 * Keeps this instance's leases alive while it holds any: each lease's score moves on and its set's expiry with it,
 * and a lease Redis lost (a restart, an outage past LEASE_MS) is written again, so open streams count again.
 */
function startRefresher() {
  if (state.refresher) return
  state.refresher = setInterval(() => {
    if (state.leases.size === 0) {
      clearInterval(state.refresher)
      state.refresher = undefined
      return
    }
    const until = Date.now() + LEASE_MS
    const leases = [...state.leases]
    void withSharedStore(async (redis) => {
      const multi = redis.multi()
      const sets = new Set<string>()
      for (const [id, keys] of leases)
        for (const k of keys) {
          multi.zAdd(k, { score: until, value: id })
          sets.add(k)
        }
      for (const k of sets) multi.pExpire(k, LEASE_MS * 2)
      await multi.exec()
    })
  }, LEASE_MS / 3)
  state.refresher.unref?.()
}

/** How many slots this instance holds per scope (the metrics and the tests). */
export const heldStreamSlots = (name: string) => state.counts.get(name) ?? 0

/**
 * Takes a stream's slots (`asked`: how many the whole stream takes, for the refusal's words): `key`'s own (STREAM_MAX_PER_KEY; a keyless caller's key is its address), the keyless tier's
 * total (PUBLIC_STREAM_LIMIT) for a keyless caller, and this instance's total (STREAM_MAX_TOTAL).
 * @returns the release, to call once when the stream ends
 * @throws TooManyStreamsError (429) when the caller holds its most; StreamCapacityError (503) when a total is reached
 */
export async function takeStreamSlots(key: string, keyless: boolean, asked = 1): Promise<() => void> {
  const env = getServerEnv()
  const own: SlotScope = { name: `key:${key}`, limit: env.STREAM_MAX_PER_KEY, shared: true }
  const scopes: SlotScope[] = [
    own,
    ...(keyless ? [{ name: 'keyless', limit: env.PUBLIC_STREAM_LIMIT, shared: true }] : []),
    { name: 'instance', limit: env.STREAM_MAX_TOTAL, shared: false },
  ]
  const grant = await acquireStreamSlots(scopes)
  if (grant.ok) return grant.release
  if (grant.scope === own) throw new TooManyStreamsError(own.limit, keyless, asked)
  throw new StreamCapacityError(grant.scope.name === 'keyless' ? 'keyless' : 'instance', grant.scope.limit, asked)
}
