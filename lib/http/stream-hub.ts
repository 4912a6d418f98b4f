import 'server-only'
import { processSingleton } from '../runtime/process-singleton'
import { getServerEnv } from '../env'
import { getFeeReportsBefore, watchChain } from '../fees'
import { count } from '../metrics/registry'
import { feesEvent } from './sse-events'
import { concat, currentState, keyOf, type State } from './stream-state'

/**
 * The stream hubs: one per chain and process, holding its subscribers (per-chain streams' and the multi-chain
 * stream's), looking at the chain on its clock and pushing each new state to every subscriber that lacks it.
 */

const encoder = new TextEncoder()

/** Runs a function in the async context of the request it was captured in (Next's request stores: unstable_cache, after()). */
export type Drive = <R>(fn: () => R) => R

/** Why a stream ended: the client left, STREAM_MAX_SECONDS, too slow a reader, or the process shutting down. */
export type CloseReason = 'client' | 'duration' | 'slow' | 'shutdown'

export type Subscriber = {
  key: string
  controller: ReadableStreamDefaultController<Uint8Array>
  /** The bytes this subscriber is sent for a state, when not the state's own (a multi-chain stream's: ./multi-stream.ts). */
  encode?: (state: State) => Uint8Array
  drive: Drive
  /** When the server ends the stream (STREAM_MAX_SECONDS after it opened), ms since the epoch. */
  until: number
  /** The last `fees` event this subscriber was sent (block, staleness), and whether an `error` event came after it. */
  sentFees?: { block: number; piece?: string; stale: boolean }
  inError: boolean
  closed: boolean
  close(reason: CloseReason): void
}

export type Hub = {
  chainId: number
  subscribers: Set<Subscriber>
  timer?: ReturnType<typeof setTimeout>
  /** The tick under way, and whether another was asked for meanwhile. */
  ticking?: Promise<void>
  again?: boolean
  lastBeat: number
  /** The chain's last state, as built once for every subscriber. */
  last?: State
  /** The newest block whose `fees` event the hub pushed (undefined: none yet). */
  pushedBlock?: number
  /** The head of the hub's own last look that found a window (block, timestamp in s): see wentBack. */
  looked?: { block: number; timestamp?: number }
  /** The block interval of the last window, ms (sets the clock's period). */
  intervalMs: number
  /** Until when the last window is fresh: its next read is due then, and the clock looks at that moment. */
  freshUntil?: number
  /** New windows (or failures) the feed announced, and how many of them a finished look has taken in. */
  announced: number
  seen: number
  stopped: boolean
  stopWatching: () => void
}

const hubs = processSingleton('stream-hubs', () => new Map<number, Hub>())
/** Set at SIGTERM: a stream that opens after it (one still reading its first state, a reconnect) gets its opening and ends. */
const shutdown = processSingleton('stream-shutdown', () => ({ started: false }))

/** Open streams per chain on this instance (for /metrics). */
export function openStreams(): { chainId: number; streams: number }[] {
  return [...hubs.values()].map((h) => ({ chainId: h.chainId, streams: h.subscribers.size }))
}

/**
 * Sends a state to a subscriber unless it already has it: one `error` per failure streak; a `fees` event never
 * for an older block than one it was sent (unless the chain started anew: `rewound`), and for the same block only when
 * its staleness changed or an error came between.
 */
export function deliver(hub: { chainId: number }, sub: Subscriber, state: State, before?: Uint8Array, rewound = false): void {
  if (state.kind === 'error') {
    if (sub.inError) return
    if (send(sub, sub.encode?.(state) ?? state.bytes, before)) {
      sub.inError = true
      count('gas_api_stream_events_total', { chain: hub.chainId, event: 'error' })
    }
    return
  }
  const prev = sub.sentFees
  const same = state.block === prev?.block && state.stale === prev.stale && state.piece === prev.piece
  if (prev && ((state.block < prev.block && !rewound) || (same && !sub.inError))) return
  if (send(sub, sub.encode?.(state) ?? state.bytes, before)) {
    sub.sentFees = { block: state.block, piece: state.piece, stale: state.stale }
    sub.inError = false
    count('gas_api_stream_events_total', { chain: hub.chainId, event: 'fees' })
  }
}

/** Queues bytes (after `before`, in one chunk) to a subscriber; drops it when more than STREAM_BUFFER_BYTES would be waiting. */
function send(sub: Subscriber, bytes: Uint8Array, before?: Uint8Array): boolean {
  if (sub.closed) return false
  try {
    sub.controller.enqueue(before ? concat(before, bytes) : bytes)
  } catch {
    sub.close('client')
    return false
  }
  const room = sub.controller.desiredSize
  if (room !== null && room < 0) {
    sub.close('slow')
    return false
  }
  return true
}

const tickMs = (hub: Hub) => Math.min(1_000, Math.max(100, hub.intervalMs / 4))

/** Until the clock's next look: its period, or sooner when the window's next read is due (a look then starts that read). */
function nextLookIn(periodMs: number, freshUntil: number | undefined, now: number): number {
  if (freshUntil === undefined || freshUntil <= now) return periodMs
  return Math.min(periodMs, freshUntil - now + 1)
}

/** One look at the chain: push its state to every subscriber that does not have it. */
async function tick(hub: Hub): Promise<void> {
  const driver = [...hub.subscribers].at(-1)
  if (!driver || hub.stopped) return
  const taken = hub.announced
  const result = await driver.drive(() => currentState(hub.chainId, hub.last))
  if (result.intervalMs !== undefined) hub.intervalMs = result.intervalMs
  if (result.freshUntil !== undefined && result.freshUntil !== hub.freshUntil) {
    hub.freshUntil = result.freshUntil
    // the next read is due at another moment (a new window): the clock looks then, not a period later
    if (hub.timer) {
      clearTimeout(hub.timer)
      arm(hub)
    }
  }
  if (result.state) hub.last = result.state
  const last = hub.last
  if (!last || keyOf(last) !== result.key) return
  hub.seen = taken
  if (last.kind === 'fees' && hub.pushedBlock !== undefined && last.block > hub.pushedBlock + 1) {
    // blocks between the last pushed and this one (the feed took two windows between looks, or a read
    // found two new blocks): each is pushed, oldest first, from the window cut at it
    const after = hub.pushedBlock
    const missed = await driver.drive(() => getFeeReportsBefore(hub.chainId, after, MAX_MISSED_BLOCKS)).catch(() => [])
    for (const m of missed) {
      const state: State = {
        kind: 'fees',
        block: m.block,
        stale: m.stale,
        bytes: encoder.encode(feesEvent(m.block, m.stale, m.bodies, m.blobFees)),
      }
      for (const sub of hub.subscribers) deliver(hub, sub, state)
    }
  }
  const rewound = last.kind === 'fees' && hub.looked !== undefined && wentBack(last, hub.looked)
  if (last.kind === 'fees') {
    hub.looked = { block: last.block, timestamp: last.timestamp }
    hub.pushedBlock = rewound ? last.block : Math.max(hub.pushedBlock ?? last.block, last.block)
  }
  for (const sub of hub.subscribers) deliver(hub, sub, last, undefined, rewound)
}

/**
 * Whether `head` is a chain started anew after `before` (a devnet restarted): a lower block number with a later
 * timestamp. A lower number with an earlier timestamp is a node behind the last one (a failover, a lagging backend
 * of a load-balanced RPC), never pushed.
 */
function wentBack(head: { block: number; timestamp?: number }, before: { block: number; timestamp?: number }): boolean {
  return head.block < before.block && head.timestamp !== undefined && before.timestamp !== undefined && head.timestamp > before.timestamp
}

/** Most blocks pushed from a cut window after a gap; after a longer one (a chain that ran on unseen), the head only. */
const MAX_MISSED_BLOCKS = 16

function schedule(hub: Hub): void {
  if (hub.ticking) {
    hub.again = true
    return
  }
  hub.ticking = tick(hub)
    .catch(() => {})
    .finally(() => {
      hub.ticking = undefined
      if (hub.again) {
        hub.again = false
        schedule(hub)
      }
    })
}

const HEARTBEAT = encoder.encode(': keep-alive\n\n')

/** The hub's clock: ends streams past their duration, sends heartbeats, and looks at the chain (which starts the next read when the window expires). */
function arm(hub: Hub): void {
  if (hub.stopped) return
  hub.timer = setTimeout(
    () => {
      const now = Date.now()
      for (const sub of hub.subscribers) if (now >= sub.until) sub.close('duration')
      if (now - hub.lastBeat >= getServerEnv().STREAM_HEARTBEAT_SECONDS * 1000) {
        hub.lastBeat = now
        for (const sub of hub.subscribers) send(sub, HEARTBEAT)
      }
      // closing the last subscriber (above, or a slow one dropped by the heartbeat) stopped the hub
      if (hub.stopped) return
      schedule(hub)
      arm(hub)
    },
    nextLookIn(tickMs(hub), hub.freshUntil, Date.now()),
  )
  hub.timer.unref?.()
}

export function stop(hub: Hub): void {
  if (hub.stopped) return
  hub.stopped = true
  if (hub.timer) clearTimeout(hub.timer)
  hub.stopWatching()
  // a newer hub for the chain may already be in the map: it is not this one's to remove
  if (hubs.get(hub.chainId) === hub) hubs.delete(hub.chainId)
}

export function hubOf(chainId: number): Hub {
  let hub = hubs.get(chainId)
  if (!hub) {
    const created: Hub = {
      chainId,
      subscribers: new Set(),
      lastBeat: Date.now(),
      intervalMs: 2_000,
      announced: 0,
      seen: -1,
      stopped: false,
      // while subscribed, the chain's feed is warm: it reads on the chain's blocks and calls back on each new window or failure
      stopWatching: watchChain(chainId, () => {
        created.announced++
        schedule(created)
      }),
    }
    hubs.set(chainId, (hub = created))
    arm(hub)
  }
  return hub
}

/** The chain's hub when one is running (no hub is started). */
export const runningHub = (chainId: number): Hub | undefined => hubs.get(chainId)

/**
 * Ends every open stream as STREAM_MAX_SECONDS does (the clients reconnect, to the instance that replaces this one):
 * at SIGTERM, so that `next start`'s graceful close, which waits for open responses, does not wait out every stream.
 */
export function endAllStreams(): void {
  shutdown.started = true
  for (const hub of [...hubs.values()]) for (const sub of [...hub.subscribers]) sub.close('shutdown')
}

/**
 * Adds a subscriber to its hub and sends its opening state (after `before`, in one chunk): the hub's last event
 * instead when that is of a newer block (the opening was read before the hub pushed it), so that no block falls
 * between the opening and the next push; a hub that has pushed nothing yet starts from the opening, so its first
 * look pushes every block after it.
 * @returns whether an opening state was sent
 */
export function join(hub: Hub, sub: Subscriber, first: State | undefined, before?: Uint8Array): boolean {
  if (shutdown.started) queueMicrotask(() => sub.close('shutdown'))
  hub.subscribers.add(sub)
  const last = hub.last
  const opening = first?.kind === 'fees' && last?.kind === 'fees' && last.block > first.block && !wentBack(first, last) ? last : first
  if (!opening) return false
  if (opening.kind === 'fees' && hub.pushedBlock === undefined) {
    hub.last ??= opening
    hub.pushedBlock = opening.block
  }
  deliver(hub, sub, opening, before)
  return true
}
