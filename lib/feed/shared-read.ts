import 'server-only'
import type { FeedWindow } from './feed-window'
import { UNAVAILABLE, type Unavailable } from '../runtime/unavailable'

/** The shared store as the cross-instance single-flight needs it (lib/store/store in production). */
export type SharedWindowStore = {
  get(chainId: number): Promise<FeedWindow | null | Unavailable>
  put(chainId: number, window: FeedWindow, ttlMs: number): Promise<void>
  lock(chainId: number, ttlMs: number): Promise<string | null | Unavailable>
  unlock(chainId: number, token: string): Promise<void>
}

/**
 * Where a window came from: another instance's read, our read under the lock, our read without the
 * store, or (the group's read ceiling reached) the newest window known without a read.
 */
export type SharedReadSource = 'joined' | 'led' | 'local' | 'ceiling'

/**
 * A window and where it came from. `groupStarts`, with 'ceiling' when the published window was
 * seen: the group's read starts it carries, so the caller's own ceiling waits for the group's
 * (without them it would try again at once, and turn to the store in a loop until the period ends).
 */
export type SharedReadResult = { window: FeedWindow; source: SharedReadSource; groupStarts?: readonly number[] }

export type SharedReadParams = {
  store: SharedWindowStore
  chainId: number
  /** A published window is taken only if it was read after this (ms since the epoch), ... */
  newerThan: number
  /** ... its head is not behind ours (another instance's node may lag), ... */
  minHeadNumber: number
  /** ... and is still fresh. */
  isFresh: (window: FeedWindow) => boolean
  /**
   * The upstream read. `published`: the newest window another instance published, newer than ours
   * but no longer fresh (the read continues its read timing from it); undefined when there is none.
   */
  read: (published?: FeedWindow) => Promise<FeedWindow>
  /**
   * Whether the group may read now, given the published window (null: none): the read ceiling
   * (lib/core/contract/freshness.ts) over the read starts it carries. Always, when absent.
   */
  mayRead?: (published: FeedWindow | null) => boolean
  /**
   * The window this instance holds, if it may still be served (not past MAX_STALE_SECONDS): the
   * answer under the ceiling, or past `waitMs`, when the published one is not newer.
   */
  held?: FeedWindow
  /** How long a published window is kept in the store, ms. */
  publishTtlMs: number
  /** Longest the lock is held (longer than any read it guards; a crashed holder's lock expires), ms. */
  lockMs: number
  /** Longest we wait for another instance's read, ms. */
  waitMs: number
  pollMs?: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Newer than ours and from a node not behind ours (fresh or not). */
const newer = (p: SharedReadParams, w: FeedWindow | null | Unavailable): w is FeedWindow =>
  w !== null && w !== UNAVAILABLE && w.fetchedAt > p.newerThan && w.headNumber >= p.minHeadNumber

const usable = (p: SharedReadParams, w: FeedWindow | null | Unavailable): w is FeedWindow => newer(p, w) && p.isFresh(w)

/** Another machine's clock may run ahead: a window never counts as read later than now here. */
const joined = (w: FeedWindow) => ({ window: { ...w, fetchedAt: Math.min(w.fetchedAt, Date.now()) }, source: 'joined' as const })

/**
 * Without a read, the newest window known: the published one when it is newer than ours, else the
 * one held (none: undefined), with the group's read starts the published window carries.
 */
function newestKnown(p: SharedReadParams, published: FeedWindow | null): SharedReadResult | undefined {
  const groupStarts = published?.readStarts ?? []
  if (newer(p, published)) return { ...joined(published), source: 'ceiling', groupStarts }
  if (p.held) return { window: p.held, source: 'ceiling', groupStarts }
  return undefined
}

/**
 * Single-flight across instances: take a window another instance has just read; else read it ourselves under
 * the chain's lock and publish it; while another instance holds the lock, wait for its window (polling) up to
 * `waitMs`.
 */
export async function readThroughSharedStore(p: SharedReadParams): Promise<SharedReadResult> {
  const deadline = Date.now() + p.waitMs
  for (;;) {
    const published = await p.store.get(p.chainId)
    if (published === UNAVAILABLE) return { window: await p.read(), source: 'local' }
    if (usable(p, published)) return joined(published)
    const token = await p.store.lock(p.chainId, p.lockMs)
    if (token === UNAVAILABLE) return { window: await p.read(), source: 'local' }
    if (token !== null) {
      try {
        // the holder before us may have published between our get and our lock
        const again = await p.store.get(p.chainId)
        if (usable(p, again)) return joined(again)
        // (usable's type guard narrows `again` to no window at all here: a stale or older one is still one)
        const published = again === UNAVAILABLE ? null : (again as FeedWindow | null)
        if (p.mayRead && !p.mayRead(published)) {
          // the group has read as often as the ceiling allows in this period: the newest window known
          const turnedAway = newestKnown(p, published)
          if (turnedAway) return turnedAway
        }
        const window = await p.read(newer(p, again) ? again : undefined)
        await p.store.put(p.chainId, window, p.publishTtlMs)
        return { window, source: 'led' }
      } finally {
        await p.store.unlock(p.chainId, token)
      }
    }
    // (as above: a published window that is not usable is still one)
    if (Date.now() >= deadline) return newestKnown(p, published as FeedWindow | null) ?? { window: await p.read(), source: 'local' }
    await sleep(p.pollMs ?? 20)
  }
}
