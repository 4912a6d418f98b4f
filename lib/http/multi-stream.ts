import 'server-only'
import { AsyncLocalStorage } from 'node:async_hooks'
import { isKeyless } from '../auth/identity'
import { getServerEnv } from '../env'
import { count } from '../metrics/registry'
import { InvalidQueryError, UnsupportedChainError } from '../core/contract/errors'
import { getChain } from '../chains/registry'
import { takeStreamSlots } from '../ratelimit/stream-slots'
import { processSingleton } from '../runtime/process-singleton'
import { errorStatus } from './error-answers'
import { multiChainHandler } from './multi-chain'
import { withChainId } from './sse-events'
import { openingState, releasedOnAbort, SSE_HEADERS } from './stream'
import { hubOf, join, stop, type CloseReason, type Drive, type Subscriber } from './stream-hub'
import type { State } from './stream-state'

/**
 * GET /v1/stream?chainIds=…: one Server-Sent Events connection for several chains. Each chain's events are its
 * per-chain stream's (./stream.ts), from the same hub (one subscriber per chain on the connection's controller),
 * with `chainId` in the data; so a connection reads nothing a per-chain stream would not.
 */

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Each state's multi-chain bytes, built once for every connection that sends it. */
const encoded = processSingleton('multi-stream-events', () => new WeakMap<State, Uint8Array>())

function encodeFor(chainId: number): (state: State) => Uint8Array {
  return (state) => {
    let bytes = encoded.get(state)
    if (!bytes) encoded.set(state, (bytes = encoder.encode(withChainId(decoder.decode(state.bytes), chainId))))
    return bytes
  }
}

/**
 * Takes one stream slot per chain under the caller's, the keyless tier's and the instance's ceilings, all or
 * none, so a list counts as that many streams.
 * @throws TooManyStreamsError (429), StreamCapacityError (503)
 */
async function takeSlotsPerChain(key: string, chains: number): Promise<() => void> {
  const taken = await Promise.allSettled(Array.from({ length: chains }, () => takeStreamSlots(key, isKeyless(key), chains)))
  const releases = taken.flatMap((t) => (t.status === 'fulfilled' ? [t.value] : []))
  const releaseAll = () => releases.forEach((release) => release())
  const refused = taken.find((t) => t.status === 'rejected')
  if (refused) {
    releaseAll()
    throw refused.reason
  }
  return releaseAll
}

type First = Awaited<ReturnType<typeof openingState>>

/** A client error (unsupported chain, no fee market) does not pass with time: it is said once, not streamed. */
const cannotStream = (first: First) => first.error !== undefined && errorStatus(first.error) < 500

/**
 * The connection's controller as each of its chains' subscribers sees it: every hub sends its heartbeat to its
 * subscribers, and one per STREAM_HEARTBEAT_SECONDS / 2 is enough for the connection.
 */
export function heartbeatOnce(
  controller: ReadableStreamDefaultController<Uint8Array>,
  periodMs: number,
): ReadableStreamDefaultController<Uint8Array> {
  let lastBeat = 0
  return {
    enqueue(bytes?: Uint8Array) {
      // after the opening, a comment (`:`) is only ever a heartbeat
      if (bytes?.[0] === 0x3a) {
        if (Date.now() - lastBeat < periodMs / 2) return
        lastBeat = Date.now()
      }
      controller.enqueue(bytes)
    },
    get desiredSize() {
      return controller.desiredSize
    },
    close: () => controller.close(),
    error: (e?: unknown) => controller.error(e),
  }
}

/** GET /v1/stream. A chain that cannot stream (unsupported, no EIP-1559) gets its `error` event once; the others stream. */
export const multiStreamGET = multiChainHandler('multiStream', async (chainIds, { key, request }) => {
  // a list of chains none of which is served is refused before its slots, as a chain's own stream is
  if (chainIds.length > 0 && chainIds.every((id) => !getChain(id))) throw new UnsupportedChainError(chainIds[0]!)
  const release = releasedOnAbort(request.signal, await takeSlotsPerChain(key, chainIds.length))
  try {
    // each chain's current answer (the hub's event while it is current), the cold windows read in parallel
    const firsts = await Promise.all(chainIds.map(openingState))
    if (firsts.length === 0) throw new InvalidQueryError('chainIds', 'names no chain: none is served here.')
    // no chain can stream: the first one's error answers, as its own stream would (an EventSource does not reconnect
    // after a 4xx, where it would after a stream that ended)
    if (firsts.every(cannotStream)) throw firsts[0]!.error
    return openMultiStream(request, chainIds, firsts, key, release)
  } catch (err) {
    release()
    throw err
  }
})

/**
 * HEAD of GET /v1/stream: its checks and headers, no stream and no read: a list whose every chain is unsupported
 * answers the first one's 400, as GET does (whether a chain has EIP-1559 takes a read: GET says it). Its slots are
 * taken and given back at once, so a HEAD is refused (429, 503) when a GET would be.
 */
export const multiStreamHEAD = multiChainHandler('multiStream', async (chainIds, { key }) => {
  if (chainIds.length === 0) throw new InvalidQueryError('chainIds', 'names no chain: none is served here.')
  if (chainIds.every((id) => !getChain(id))) throw new UnsupportedChainError(chainIds[0]!)
  ;(await takeSlotsPerChain(key, chainIds.length))()
  return new Response(null, { status: 200, headers: { ...SSE_HEADERS } })
})

function openMultiStream(request: Request, chainIds: number[], firsts: First[], key: string, release: () => void): Response {
  const drive = AsyncLocalStorage.snapshot() as Drive
  const env = getServerEnv()
  let closeAll: ((reason: CloseReason) => void) | undefined
  // Next passes the client's disconnect to the stream as cancel()
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const joined: { hub: ReturnType<typeof hubOf>; sub: Subscriber }[] = []
        let closed = false
        const close = (reason: CloseReason) => {
          if (closed) return
          closed = true
          for (const { hub, sub } of joined) {
            sub.closed = true
            hub.subscribers.delete(sub)
            count('gas_api_stream_closed_total', { chain: hub.chainId, reason })
            if (hub.subscribers.size === 0) stop(hub)
          }
          release()
          try {
            if (reason === 'slow') controller.error(new Error('The client reads too slowly.'))
            else if (reason === 'duration' || reason === 'shutdown') controller.close()
          } catch {
            // already closed by the client
          }
        }
        closeAll = close
        controller.enqueue(
          encoder.encode(
            `retry: 1000\n: stream of chains ${chainIds.join(',')}; it ends after ${env.STREAM_MAX_SECONDS} s, reconnect then\n\n`,
          ),
        )
        const until = Date.now() + env.STREAM_MAX_SECONDS * 1000
        const shared = heartbeatOnce(controller, env.STREAM_HEARTBEAT_SECONDS * 1000)
        chainIds.forEach((chainId, i) => {
          const first = firsts[i]
          const encode = encodeFor(chainId)
          if (first && cannotStream(first)) {
            if (first.state) controller.enqueue(encode(first.state))
            return
          }
          const hub = hubOf(chainId)
          const sub: Subscriber = { key, controller: shared, drive, until, encode, inError: false, closed: false, close }
          joined.push({ hub, sub })
          join(hub, sub, first?.state)
        })
        // a client that left while the first states were read
        if (request.signal.aborted) close('client')
        else request.signal.addEventListener('abort', () => close('client'), { once: true })
      },
      cancel() {
        closeAll?.('client')
      },
    },
    // a buffer per chain named, as a slot: the opening (every chain's event at once) fits, as each chain's stream's does
    { highWaterMark: env.STREAM_BUFFER_BYTES * chainIds.length, size: (chunk) => chunk.byteLength },
  )
  return new Response(stream, { status: 200, headers: { ...SSE_HEADERS } })
}
