import 'server-only'
import { AsyncLocalStorage } from 'node:async_hooks'
import { getChain } from '../chains/registry'
import { UnsupportedChainError } from '../core/contract/errors'
import { isKeyless } from '../auth/identity'
import { takeStreamSlots } from '../ratelimit/stream-slots'
import { getServerEnv } from '../env'
import { count } from '../metrics/registry'
import { parseChainId } from './chain-id'
import { errorStatus } from './error-answers'
import { currentState, keyOf, preambleOf, type State } from './stream-state'
import { hubOf, join, runningHub, stop, type Drive, type Subscriber } from './stream-hub'
import { guarded, type RouteContext } from './guard'

/** GET /networks/{chainId}/stream: Server-Sent Events, one `fees` event per new window. */

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
    const release = releasedOnAbort(request.signal, await takeStreamSlots(key, isKeyless(key)))
    try {
      return openStream(request, chainId, key, await firstState(chainId), env, release)
    } catch (err) {
      release()
      throw err
    }
  })
}

/** `release`, once: at the client's abort, also while the stream's first state is still read (up to RPC_TIMEOUT_MS). */
export function releasedOnAbort(signal: AbortSignal, release: () => void): () => void {
  let done = false
  const once = () => {
    if (done) return
    done = true
    signal.removeEventListener('abort', once)
    release()
  }
  if (signal.aborted) once()
  else signal.addEventListener('abort', once, { once: true })
  return once
}

/**
 * The state a new stream of a chain starts with, and the failure behind an `error` state: the hub's `fees` event while
 * the window it came from is fresh and every new one the feed announced has been taken in by a finished look (the
 * clock's own looks, every quarter block, do not count), so a burst of opens reads and builds nothing; else the
 * current state, the hub's event reused when it is the same. The multi-chain stream opens each chain's with it.
 */
export async function openingState(chainId: number): Promise<{ state?: State; error?: unknown }> {
  const hub = runningHub(chainId)
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
              else if (reason === 'duration' || reason === 'shutdown') controller.close()
            } catch {
              // already closed by the client
            }
            if (hub.subscribers.size === 0) stop(hub)
          },
        }
        sub = s
        // the opening lines and the first event go out as one chunk
        const preamble = preambleOf(chainId, env.STREAM_MAX_SECONDS)
        if (!join(hub, s, first, preamble)) controller.enqueue(preamble)
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
 * HEAD and never read, or cancel, the body: a subscriber and a per-key slot held for nothing). The slots are taken
 * and given back at once, so a HEAD is refused (429, 503) when a GET would be.
 */
export function streamHEAD(request: Request, context: RouteContext): Promise<Response> {
  return guarded('stream', request, async ({ key, setChain }) => {
    const chainParam = (await context.params).chainId
    setChain(chainParam)
    const chainId = parseChainId(chainParam)
    if (!getChain(chainId)) throw new UnsupportedChainError(chainId)
    ;(await takeStreamSlots(key, isKeyless(key)))()
    return new Response(null, { status: 200, headers: { ...SSE_HEADERS, 'x-chain-id': String(chainId) } })
  })
}
