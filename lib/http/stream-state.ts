import 'server-only'
import { getFeeReport } from '../fees'
import { processSingleton } from '../runtime/process-singleton'
import { toErrorResponse } from './error-answers'
import { errorEvent, feesEvent } from './sse-events'

/** A stream's states (what it says about a chain) and the bytes that carry them; ./stream.ts pushes them. */

const encoder = new TextEncoder()

/** What a stream says about a chain: a window (its block, its head's timestamp in s, staleness), or a failure; with the event's bytes. */
export type State =
  | { kind: 'fees'; block: number; timestamp?: number; piece?: string; stale: boolean; bytes: Uint8Array }
  | { kind: 'error'; bytes: Uint8Array }

/** A short name of a state: a change of it (a block, a flashblocks piece, staleness) is what is pushed. Every failure of a streak is one state. */
export const keyOf = (s: Pick<State, 'kind'> & { block?: number; piece?: string; stale?: boolean }) =>
  s.kind === 'error' ? 'error' : `fees:${s.block}:${s.piece ?? ''}:${s.stale}`

/** The chain's current state, its event built only when its key differs from the hub's last (`error`: the failure). */
export async function currentState(
  chainId: number,
  known: State | undefined,
): Promise<{ state?: State; key: string; intervalMs?: number; freshUntil?: number; error?: unknown }> {
  try {
    // the hub's looks are not requests: they stay out of the cache-lookup counter
    const { bodies, meta, blobFees } = await getFeeReport(chainId, { countLookup: false })
    const piece = meta.pending && `${meta.pending.blockNumber}.${meta.pending.piece}`
    const key = keyOf({ kind: 'fees', block: meta.blockNumber, piece, stale: meta.stale })
    const timing = { intervalMs: meta.blockIntervalMs, freshUntil: meta.freshUntil }
    if (known && key === keyOf(known)) return { key, ...timing }
    const bytes = encoder.encode(feesEvent(meta.blockNumber, meta.stale, bodies, blobFees, meta.pending))
    const state: State = { kind: 'fees', block: meta.blockNumber, timestamp: meta.blockTimestamp, piece, stale: meta.stale, bytes }
    return { key, ...timing, state }
  } catch (err) {
    if (known?.kind === 'error') return { key: 'error', error: err }
    // toErrorResponse logs upstream errors: once per failure streak, not once per look
    const body = await toErrorResponse(err).text()
    return { key: 'error', state: { kind: 'error', bytes: encoder.encode(errorEvent(body)) }, error: err }
  }
}

/** `a` then `b`, in one array; the same two give the same array (a burst's opens: one copy). Never written to. */
let lastJoin: { a: Uint8Array; b: Uint8Array; out: Uint8Array } | undefined
export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (lastJoin?.a === a && lastJoin.b === b) return lastJoin.out
  const out = new Uint8Array(a.byteLength + b.byteLength)
  out.set(a)
  out.set(b, a.byteLength)
  lastJoin = { a, b, out }
  return out
}

/** The stream's opening lines: how soon an EventSource reconnects after it ends (STREAM_MAX_SECONDS) or breaks, ms. */
const preambles = processSingleton('stream-preambles', () => new Map<string, Uint8Array>())
export function preambleOf(chainId: number, maxSeconds: number): Uint8Array {
  const key = `${chainId}:${maxSeconds}`
  let bytes = preambles.get(key)
  if (!bytes) {
    if (preambles.size > 1_000) preambles.clear()
    bytes = encoder.encode(`retry: 1000\n: stream of chain ${chainId}; it ends after ${maxSeconds} s, reconnect then\n\n`)
    preambles.set(key, bytes)
  }
  return bytes
}
