import 'server-only'
import { AsyncLocalStorage } from 'node:async_hooks'
import { getChain } from '../chains/registry'
import { UnsupportedChainError } from '../core/contract/errors'
import { isKeyless } from '../auth/identity'
import { takeStreamSlots } from '../ratelimit/stream-slots'
import { processSingleton } from '../runtime/process-singleton'
import { getServerEnv } from '../env'
import { getFeeReportsBefore, watchChain } from '../fees'
import { count } from '../metrics/registry'
import { parseChainId } from './chain-id'
import { errorStatus } from './error-answers'
import { feesEvent } from './sse-events'
import { concat, currentState, keyOf, preambleOf, type State } from './stream-state'
import { guarded, type RouteContext } from './guard'

/** GET /networks/{chainId}/stream: Server-Sent Events, one `fees` event per new window. */

const encoder = new TextEncoder()

/** Runs a function in the async context of the request it was captured in (Next's request stores: unstable_cache, after()). */
export type Drive = <R>(fn: () => R) => R

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
  close(reason: 'client' | 'duration' | 'slow'): void
}

type Hub = {
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

/** Open streams per chain on this instance (for /metrics). */
export function openStreams(): { chainId: number; streams: number }[] {
  return [...hubs.values()].map((h) => ({ chainId: h.chainId, streams: h.subscribers.size }))
}

/**
 * Sends a state to a subscriber unless it already has it: one `error` per failure streak; a `fees` event never
 * for an older block than one it was sent, and for the same block only when its staleness changed or an error came between.
 */
export function deliver(hub: { chainId: number }, sub: Subscriber, state: State, before?: Uint8Array): void {
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
  if (prev && (state.block < prev.block || (same && !sub.inError))) return
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
  if (last.kind === 'fees') hub.pushedBlock = Math.max(hub.pushedBlock ?? last.block, last.block)
  for (const sub of hub.subscribers) deliver(hub, sub, last)
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

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  // nginx and similar proxies: pass events through as they come
  'x-accel-buffering': 'no',
}

/** The stream route's GET. */
export function streamGET(request: Request, context: RouteContext): Promise<Response> {
  return guarded('stream', request, async ({ key, setChain }) => {
    const chainParam = (await context.params).chainId
    setChain(chainParam)
    const chainId = parseChainId(chainParam)
    if (!getChain(chainId)) throw new UnsupportedChainError(chainId)
    const env = getServerEnv()
    // the caller's own slots, the keyless tier's total and this instance's (429 or 503 when one is full)
    const release = await takeStreamSlots(key, isKeyless(key))
    try {
      return openStream(request, chainId, key, await firstState(chainId), env, release)
    } catch (err) {
      release()
      throw err
    }
  })
}

/**
 * The state a new stream of a chain starts with, and the failure behind an `error` state: the hub's `fees` event while
 * the window it came from is fresh and every new one the feed announced has been taken in by a finished look (the
 * clock's own looks, every quarter block, do not count), so a burst of opens reads and builds nothing; else the
 * current state, the hub's event reused when it is the same. The multi-chain stream opens each chain's with it.
 */
export async function openingState(chainId: number): Promise<{ state?: State; error?: unknown }> {
  const hub = hubs.get(chainId)
  const known = hub?.last
  const fresh = hub && !hub.stopped && hub.seen === hub.announced && hub.freshUntil !== undefined && Date.now() < hub.freshUntil
  if (fresh && known?.kind === 'fees') return { state: known }
  const first = await currentState(chainId, known)
  // a client error (a chain that cannot stream) is said in its own words, not the hub's earlier failure's
  if (first.error !== undefined && !first.state && errorStatus(first.error) < 500) return currentState(chainId, undefined)
  return { state: first.state ?? (known && keyOf(known) === first.key ? known : undefined), error: first.error }
}

/**
 * openingState, for a stream of one chain.
 * @throws a client error (a chain that cannot have a fee market is a 400): answered instead of a stream
 */
async function firstState(chainId: number): Promise<State | undefined> {
  const first = await openingState(chainId)
  if (first.error !== undefined && errorStatus(first.error) < 500) throw first.error
  return first.state
}

function openStream(
  request: Request,
  chainId: number,
  key: string,
  first: State | undefined,
  env: ReturnType<typeof getServerEnv>,
  release: () => void,
): Response {
  const drive = AsyncLocalStorage.snapshot() as Drive
  let sub: Subscriber | undefined
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const hub = hubOf(chainId)
        const s: Subscriber = {
          key,
          controller,
          drive,
          until: Date.now() + env.STREAM_MAX_SECONDS * 1000,
          inError: false,
          closed: false,
          close(reason) {
            if (s.closed) return
            s.closed = true
            hub.subscribers.delete(s)
            release()
            count('gas_api_stream_closed_total', { chain: chainId, reason })
            try {
              if (reason === 'slow') controller.error(new Error('The client reads too slowly.'))
              else if (reason === 'duration') controller.close()
            } catch {
              // already closed by the client
            }
            if (hub.subscribers.size === 0) stop(hub)
          },
        }
        sub = s
        hub.subscribers.add(s)
        // the opening lines and the first event go out as one chunk
        const preamble = preambleOf(chainId, env.STREAM_MAX_SECONDS)
        if (first) deliver(hub, s, first, preamble)
        else controller.enqueue(preamble)
        // a client that left while the first state was read: its abort has fired already
        if (request.signal.aborted) s.close('client')
        else request.signal.addEventListener('abort', () => s.close('client'), { once: true })
      },
      cancel() {
        sub?.close('client')
      },
    },
    { highWaterMark: env.STREAM_BUFFER_BYTES, size: (chunk) => chunk.byteLength },
  )
  return new Response(stream, { status: 200, headers: { ...SSE_HEADERS, 'x-chain-id': String(chainId) } })
}

/**
 * HEAD of the stream: the checks and headers of a GET, no stream (Next would otherwise run GET for
 * HEAD and never read, or cancel, the body: a subscriber and a per-key slot held for nothing).
 */
export function streamHEAD(request: Request, context: RouteContext): Promise<Response> {
  return guarded('stream', request, async ({ setChain }) => {
    const chainParam = (await context.params).chainId
    setChain(chainParam)
    const chainId = parseChainId(chainParam)
    if (!getChain(chainId)) throw new UnsupportedChainError(chainId)
    return new Response(null, { status: 200, headers: { ...SSE_HEADERS, 'x-chain-id': String(chainId) } })
  })
}
