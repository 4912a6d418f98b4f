// The stream hub (lib/http/stream.ts) on a fake clock, with the feed replaced by a report a test sets:
// duration, heartbeats, slow clients, error events, and the per-key limit.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { sseParser, type SseEvent } from '@/scripts/stream/sse-client'

const ENV = {
  STREAM_MAX_PER_KEY: 2,
  STREAM_MAX_SECONDS: 60,
  STREAM_HEARTBEAT_SECONDS: 15,
  STREAM_BUFFER_BYTES: 4_096,
  REQUEST_LOG: false,
}

const state: {
  block: number
  /** The head's timestamp, s (default: the block number: a chain that runs on). */
  timestamp?: number
  stale: boolean
  error?: Error
  historyBytes: number
  gate?: Promise<void>
  intervalMs: number
  freshUntil: number
  /** When the hub asked the feed (fake clock). */
  looks: number[]
} = {
  block: 100,
  stale: false,
  historyBytes: 10,
  intervalMs: 1_000,
  freshUntil: 0,
  looks: [],
}
const watchers = new Set<(chainId: number) => void>()

vi.mock('@/lib/env', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/env')>()),
  getServerEnv: () => ENV,
}))
vi.mock('@/lib/chains/registry', () => ({ getChain: (id: number) => (id === 1 ? { id: 1 } : undefined) }))
vi.mock('@/lib/ratelimit', () => ({ consumeRateLimit: async () => ({}) }))
const bodiesAt = (block: number) => ({
  suggestedGasFees: `{"block":${block}}`,
  busyThreshold: '{"busyThreshold":"1"}',
  baseFeePercentile: '{"baseFeePercentile":"1"}',
  baseFeeHistory: JSON.stringify(['x'.repeat(state.historyBytes)]),
  baseFeeForecast: '{"blockNumber":1}',
})
vi.mock('@/lib/fees', () => ({
  // the blocks after `after` and before the head, each from the window cut at it
  getFeeReportsBefore: async (_chainId: number, after: number, max: number) => {
    const reports = []
    for (let b = Math.max(after + 1, state.block - max); b < state.block; b++)
      reports.push({ block: b, stale: state.stale, bodies: bodiesAt(b) })
    return reports
  },
  watchChain: (chainId: number, fn: () => void) => {
    const watcher = (id: number) => {
      if (id === chainId) fn()
    }
    watchers.add(watcher)
    return () => watchers.delete(watcher)
  },
  getFeeReport: async () => {
    state.looks.push(Date.now())
    // what the feed holds when the look starts: a look held at the gate answers with it
    const { block, stale, timestamp } = state
    if (state.gate) await state.gate
    if (state.error) throw state.error
    return {
      bodies: bodiesAt(block),
      meta: {
        chainId: 1,
        blockNumber: block,
        blockIntervalMs: state.intervalMs,
        stale,
        fetchedAt: 0,
        freshUntil: state.freshUntil,
        blockTimestamp: timestamp ?? block,
      },
    }
  },
}))
// the handler trusts only the middleware's signed identity header: sign one per key, as the middleware does
const API_KEYS = ['k', 'slow', 'fast', 'limited'].map((k) => `${k}:${k}-secret-0123456789abcdef`).join(', ')
process.env.API_KEYS = API_KEYS

const { openingState, streamGET, streamHEAD } = await import('@/lib/http/stream')
const { hubOf, join, openStreams, stop } = await import('@/lib/http/stream-hub')
const { multiStreamGET } = await import('@/lib/http/multi-stream')
const { feesEvent } = await import('@/lib/http/sse-events')
const { IDENTITY_HEADER, signIdentity } = await import('@/lib/auth/identity')
const { FeeMarketUnsupportedError, UpstreamUnavailableError } = await import('@/lib/core/contract/errors')

/** Opens a stream and reads it as a client does (or not at all: `read: false`). */
async function connect(opts: { key?: string; read?: boolean } = {}) {
  const abort = new AbortController()
  const identity = await signIdentity(opts.key ?? 'k', API_KEYS)
  const res = await streamGET(
    new Request('http://x/networks/1/stream', { headers: { [IDENTITY_HEADER]: identity }, signal: abort.signal }),
    {
      params: Promise.resolve({ chainId: '1' }),
    },
  )
  const events: SseEvent[] = []
  let comments = 0
  let bytes = 0
  let ended: 'no' | 'closed' | 'errored' = 'no'
  if (res.status === 200 && opts.read !== false) {
    const parser = sseParser((e) => events.push(e))
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) return void (ended = 'closed')
          bytes += value.byteLength
          parser.push(decoder.decode(value, { stream: true }))
          comments = parser.comments()
        }
      } catch {
        ended = 'errored'
      }
    })()
  }
  return { res, events, comments: () => comments, bytes: () => bytes, ended: () => ended, abort: () => abort.abort() }
}

/** Lets the hub's timers and the streams' microtasks run, `ms` of fake time. */
async function advance(ms: number) {
  await vi.advanceTimersByTimeAsync(ms)
}

const fired = (chainId = 1) => {
  for (const w of watchers) w(chainId)
}

/** Holds the feed's answers from now until the returned release (a slow cache read, or a busy event loop). */
function holdLooks(): () => void {
  let release = () => {}
  state.gate = new Promise<void>((r) => (release = r))
  return release
}

/** A stream on a fresh window, once the hub's clock finished its first look (a quarter of a 2-s block). */
async function settledStream() {
  state.freshUntil = Date.now() + 5_000
  const a = await connect()
  await advance(600)
  return a
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  Object.assign(state, {
    block: 100,
    timestamp: undefined,
    stale: false,
    error: undefined,
    historyBytes: 10,
    gate: undefined,
    intervalMs: 1_000,
    freshUntil: 0,
    looks: [],
  })
  ENV.STREAM_BUFFER_BYTES = 4_096
})
afterEach(async () => {
  vi.useRealTimers()
})

describe('the stream hub', () => {
  test('default: the current state at once, then one event per change of block or staleness, none when nothing changed', async () => {
    const c = await connect()
    await advance(10)
    expect(c.events.map((e) => [e.event, e.id])).toEqual([['fees', '100']])
    await advance(5_000)
    expect(c.events).toHaveLength(1)
    state.block = 101
    fired()
    await advance(10)
    state.stale = true
    await advance(1_000)
    expect(c.events.map((e) => [e.id, (JSON.parse(e.data) as { stale: boolean }).stale])).toEqual([
      ['100', false],
      ['101', false],
      ['101', true],
    ])
    c.abort()
    await advance(1_000)
    expect(openStreams()).toEqual([])
  })

  test("behavior: an open on the state the hub holds gets the hub's event as it is; on a newer state, the newer one", async () => {
    const a = await connect()
    await advance(10)
    const b = await connect()
    await advance(10)
    const sent = (x: typeof a) => x.events.map((e) => [e.event, e.id, e.data])
    expect(sent(b)).toEqual(sent(a))
    expect(sent(b)).toHaveLength(1)
    // the chain moved on and the hub has not looked yet: a new stream starts at the new block, not the hub's
    state.block = 101
    const c = await connect({ key: 'fast' })
    await advance(10)
    expect(c.events.map((e) => [e.event, e.id])).toEqual([['fees', '101']])
    state.stale = true
    const d = await connect({ key: 'slow' })
    await advance(10)
    expect(d.events.map((e) => [e.id, (JSON.parse(e.data) as { stale: boolean }).stale])).toEqual([['101', true]])
    for (const x of [a, b, c, d]) x.abort()
    await advance(1_000)
    expect(openStreams()).toEqual([])
  })

  test("behavior: while the hub's window is fresh and no new one was announced, an open gets the hub's event without a read", async () => {
    const a = await settledStream()
    state.looks = []
    const b = await connect({ key: 'fast' })
    await advance(10)
    expect(state.looks).toEqual([])
    expect(b.events.map((e) => [e.event, e.id, e.data])).toEqual(a.events.map((e) => [e.event, e.id, e.data]))
    // a new window announced: the open reads it (the hub's look is under way), and starts at the new block
    state.block = 101
    state.gate = new Promise(() => {})
    fired()
    state.gate = undefined
    const c = await connect({ key: 'slow' })
    await advance(10)
    expect(c.events.map((e) => [e.event, e.id])).toEqual([['fees', '101']])
    for (const x of [a, b, c]) x.abort()
    await advance(1_000)
  })

  test("behavior: opens on the hub's event share one opening chunk, the preamble and the event copied once for all", async () => {
    const a = await settledStream()
    const opening = async (key: string) => {
      const identity = await signIdentity(key, API_KEYS)
      const res = await streamGET(new Request('http://x/networks/1/stream', { headers: { [IDENTITY_HEADER]: identity } }), {
        params: Promise.resolve({ chainId: '1' }),
      })
      const reader = res.body!.getReader()
      const read = reader.read()
      await advance(10)
      return { chunk: (await read).value!, cancel: () => reader.cancel() }
    }
    const b = await opening('fast')
    const c = await opening('slow')
    await Promise.all([b.cancel(), c.cancel()])
    a.abort()
    await advance(1_000)
    expect(openStreams()).toEqual([])
    expect(c.chunk).toBe(b.chunk)
    const text = new TextDecoder().decode(b.chunk)
    expect(text.startsWith('retry: 1000\n')).toBe(true)
    expect(text.endsWith(`id: ${a.events[0]!.id}\ndata: ${a.events[0]!.data}\n\n`)).toBe(true)
  })

  test("behavior: while the hub's clock looks at the chain (no new window announced), an open still gets the hub's event without a read", async () => {
    const a = await settledStream()
    // the clock's next look hangs in the feed
    const release = holdLooks()
    state.looks = []
    await advance(600)
    const looked = state.looks.length
    expect(looked).toBeGreaterThan(0)
    const opening = connect({ key: 'fast' })
    await advance(10)
    expect(state.looks).toHaveLength(looked)
    const b = await opening
    await advance(10)
    expect(b.events.map((e) => [e.event, e.id, e.data])).toEqual(a.events.map((e) => [e.event, e.id, e.data]))
    release()
    state.gate = undefined
    for (const x of [a, b]) x.abort()
    await advance(1_000)
  })

  test('behavior: a window announced while a look is under way: opens read until a look that began after it finishes', async () => {
    const a = await settledStream()
    // the clock's next look starts on block 100 and is held
    const release1 = holdLooks()
    await advance(600)
    // block 101 is announced meanwhile; the look that follows it is held too
    state.block = 101
    fired()
    const release2 = holdLooks()
    release1()
    await advance(10)
    state.gate = undefined
    // the first look finished on block 100: not enough for the hub's event to stand for the chain
    const b = await connect({ key: 'fast' })
    await advance(10)
    expect(b.events.map((e) => [e.event, e.id])).toEqual([['fees', '101']])
    release2()
    for (const x of [a, b]) x.abort()
    await advance(1_000)
  })

  test("behavior: a chain that turns into a client error opens with that error's event, not the hub's earlier failure's", async () => {
    const a = await connect()
    await advance(10)
    state.error = new UpstreamUnavailableError('The node did not answer.')
    await advance(1_000)
    expect(a.events.at(-1)?.event).toBe('error')
    state.error = new FeeMarketUnsupportedError(1)
    const first = await openingState(1)
    expect(first.error).toBe(state.error)
    const data = JSON.parse(new TextDecoder().decode(first.state!.bytes).split('data: ')[1]!) as { statusCode: number }
    expect(data.statusCode).toBe(400)
    state.error = undefined
    a.abort()
    await advance(1_000)
  })

  test("behavior: a multi-chain stream opens a chain with its hub's event, without a read, while the hub's is current", async () => {
    const a = await settledStream()
    state.looks = []
    const abort = new AbortController()
    const res = await multiStreamGET(
      new Request('http://x/v1/stream?chainIds=1', {
        headers: { [IDENTITY_HEADER]: await signIdentity('fast', API_KEYS) },
        signal: abort.signal,
      }),
    )
    expect(res.status).toBe(200)
    const events: SseEvent[] = []
    const parser = sseParser((e) => events.push(e))
    const reader = res.body!.getReader()
    while (events.length === 0) parser.push(new TextDecoder().decode((await reader.read()).value))
    expect(state.looks).toEqual([])
    expect(events.map((e) => [e.event, e.id, JSON.parse(e.data)])).toEqual(
      // a stream of several chains: no block number as the event's id
      a.events.map((e) => [e.event, undefined, { ...(JSON.parse(e.data) as object), chainId: 1 }]),
    )
    abort.abort()
    a.abort()
    await advance(1_000)
  })

  /** A subscriber that records the blocks of the `fees` events it is sent, joined to chain 1's hub with `opening`. */
  function joined(opening: number) {
    const blocks: number[] = []
    const parser = sseParser((e) => blocks.push(Number(e.id)))
    const hub = hubOf(1)
    const sub = {
      key: 'k',
      controller: {
        enqueue: (bytes: Uint8Array) => parser.push(new TextDecoder().decode(bytes)),
        desiredSize: 1_000_000,
      } as unknown as ReadableStreamDefaultController<Uint8Array>,
      drive: <R>(fn: () => R) => fn(),
      until: Date.now() + 60_000,
      inError: false,
      closed: false,
      close: () => {
        hub.subscribers.delete(sub)
        stop(hub)
      },
    }
    const bytes = new TextEncoder().encode(feesEvent(opening, false, bodiesAt(opening)))
    join(hub, sub, { kind: 'fees', block: opening, stale: false, bytes })
    return { hub, blocks, close: () => sub.close() }
  }

  test('behavior: a new hub starts from its first subscriber’s opening: its first look pushes every block after it, oldest first', async () => {
    // the opening was read at block 100 (a multi-chain stream waited for a slower chain); the chain is at 103 now
    state.block = 103
    const s = joined(100)
    await advance(600)
    expect(s.blocks).toEqual([100, 101, 102, 103])
    s.close()
  })

  test('behavior: an opening older than the hub’s last event is sent as that event, so no block falls between it and the next push', async () => {
    const a = await settledStream()
    state.block = 102
    fired()
    await advance(600)
    expect(a.events.map((e) => Number(e.id))).toEqual([100, 101, 102])
    // an opening read at 100, joined after the hub pushed 102: it starts at 102; the next push is 103
    const s = joined(100)
    state.block = 103
    fired()
    await advance(600)
    expect(s.blocks).toEqual([102, 103])
    s.close()
    a.abort()
    await advance(1_000)
  })

  test("behavior: the hub looks at the chain the moment the window's next read is due, not up to a period later", async () => {
    // a 12-s chain: the hub's period is 1 s; the feed says the window's next read is due in 300 ms
    state.intervalMs = 12_000
    const c = await connect()
    await advance(10)
    const due = Date.now() + 300
    state.freshUntil = due
    state.block = 101
    fired()
    await advance(5)
    state.looks = []
    await advance(290)
    expect(state.looks.filter((t) => t < due)).toEqual([])
    await advance(20)
    // the look that starts the read (lib/feed/chain-feed.ts: a window past its next read starts it)
    expect(state.looks.some((t) => t >= due && t <= due + 5)).toBe(true)
    // the clock's earlier timer (its period from the first look) was replaced, not left to fire too
    await advance(600)
    expect(state.looks.filter((t) => t > due + 5 && t < due + 600)).toEqual([])
    c.abort()
  })

  test('behavior: a failing upstream is one `event: error` with the JSON error body, the stream stays open, and recovers', async () => {
    const c = await connect()
    await advance(10)
    state.error = new UpstreamUnavailableError('The node did not answer.')
    await advance(3_000)
    const errors = c.events.filter((e) => e.event === 'error')
    expect(errors).toHaveLength(1)
    expect(JSON.parse(errors[0]!.data)).toMatchObject({ statusCode: 503, error: 'Service Unavailable' })
    state.error = undefined
    state.block = 102
    await advance(1_000)
    expect(c.events.at(-1)).toMatchObject({ event: 'fees', id: '102' })
    expect(c.ended()).toBe('no')
    c.abort()
  })

  test('behavior: heartbeats every STREAM_HEARTBEAT_SECONDS; the stream ends after STREAM_MAX_SECONDS', async () => {
    const c = await connect()
    await advance(10)
    const before = c.comments()
    await advance(ENV.STREAM_HEARTBEAT_SECONDS * 1000 + 1_000)
    expect(c.comments()).toBeGreaterThan(before)
    expect(c.ended()).toBe('no')
    await advance(ENV.STREAM_MAX_SECONDS * 1000)
    expect(c.ended()).toBe('closed')
    expect(openStreams()).toEqual([])
  })

  test('behavior: a client that does not read is dropped once more than STREAM_BUFFER_BYTES wait for it; the others go on', async () => {
    state.historyBytes = 1_000
    const slow = await connect({ read: false, key: 'slow' })
    const fast = await connect({ key: 'fast' })
    for (let b = 101; b <= 110; b++) {
      state.block = b
      fired()
      await advance(10)
    }
    expect(openStreams()).toEqual([{ chainId: 1, streams: 1 }])
    expect(fast.events.at(-1)?.id).toBe('110')
    expect(slow.res.status).toBe(200)
    fast.abort()
  })

  test('errors: past STREAM_MAX_PER_KEY streams a key gets 429 with the JSON body; a closed stream frees its slot', async () => {
    const a = await connect({ key: 'limited' })
    const b = await connect({ key: 'limited' })
    const refused = await connect({ key: 'limited' })
    expect(refused.res.status).toBe(429)
    expect(await refused.res.json()).toMatchObject({ statusCode: 429 })
    expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0)
    a.abort()
    await advance(10)
    const again = await connect({ key: 'limited' })
    expect(again.res.status).toBe(200)
    b.abort()
    again.abort()
  })

  test('errors: an unknown chain is a 400 JSON error, not a stream; no identity is a 401', async () => {
    const headers = { [IDENTITY_HEADER]: await signIdentity('k', API_KEYS) }
    const res = await streamGET(new Request('http://x/networks/5/stream', { headers }), { params: Promise.resolve({ chainId: '5' }) })
    expect(res.status).toBe(400)
    const anonymous = await streamGET(new Request('http://x/networks/1/stream'), { params: Promise.resolve({ chainId: '1' }) })
    expect(anonymous.status).toBe(401)
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toMatch(/json/)
  })

  test('behavior: never an older block than one sent; a failure streak is one error event whatever its messages', async () => {
    const c = await connect()
    await advance(10)
    state.block = 99
    fired()
    await advance(1_000)
    expect(c.events.map((e) => e.id)).toEqual(['100'])
    for (const message of ['timeout', 'HTTP 503', 'timeout', 'HTTP 503']) {
      state.error = new UpstreamUnavailableError(message)
      fired()
      await advance(300)
    }
    expect(c.events.filter((e) => e.event === 'error')).toHaveLength(1)
    // the failure ends: the window is sent again, even for the same block, to say so
    state.error = undefined
    state.block = 100
    await advance(1_000)
    expect(c.events.at(-1)).toMatchObject({ event: 'fees', id: '100' })
    c.abort()
  })

  test('behavior: a node behind the last one (a failover, a lagging backend) is never pushed: no older block, no block twice', async () => {
    const c = await connect()
    await advance(600)
    for (const b of [101, 102, 101, 103]) {
      state.block = b
      fired()
      await advance(600)
    }
    expect(c.events.map((e) => Number(e.id))).toEqual([100, 101, 102, 103])
    c.abort()
    await advance(1_000)
  })

  test('behavior: a chain started anew (a lower block, a later timestamp: a devnet restarted) has its new head pushed, then the blocks after it', async () => {
    const c = await connect()
    await advance(600)
    state.block = 101
    fired()
    await advance(600)
    // the node is down a while, then answers as a new chain from block 40
    state.error = new UpstreamUnavailableError('timeout')
    fired()
    await advance(600)
    state.error = undefined
    for (const b of [40, 41]) {
      state.block = b
      state.timestamp = 1_000 + b
      fired()
      await advance(600)
    }
    expect(c.events.map((e) => (e.event === 'fees' ? Number(e.id) : e.event))).toEqual([100, 101, 'error', 40, 41])
    c.abort()
    await advance(1_000)
  })

  test('behavior: a hub stopped by its last subscriber leaving never removes the hub a newer subscriber started', async () => {
    // how many bytes the preamble and the first event take, read by a client that reads
    const probe = await connect({ key: 'fast' })
    await advance(10)
    const firstBytes = probe.bytes()
    probe.abort()
    await advance(10)
    // a client that does not read, with just room for those: the first heartbeat overflows it and drops it, the hub's last
    ENV.STREAM_BUFFER_BYTES = firstBytes + 4
    const slow = await connect({ key: 'slow', read: false })
    expect(slow.res.status).toBe(200)
    await advance(ENV.STREAM_HEARTBEAT_SECONDS * 1000 + 50)
    expect(openStreams()).toEqual([])
    ENV.STREAM_BUFFER_BYTES = 4_096
    const next = await connect({ key: 'fast' })
    await advance(5_000)
    expect(openStreams()).toEqual([{ chainId: 1, streams: 1 }])
    state.block = 101
    fired()
    await advance(10)
    expect(next.events.at(-1)?.id).toBe('101')
    next.abort()
  })

  test('behavior: a client gone before its stream opened frees its slot; HEAD holds none, and is refused when GET would be', async () => {
    let open: () => void = () => {}
    state.gate = new Promise<void>((r) => (open = r))
    const abort = new AbortController()
    const identity = await signIdentity('limited', API_KEYS)
    const pending = streamGET(
      new Request('http://x/networks/1/stream', { headers: { [IDENTITY_HEADER]: identity }, signal: abort.signal }),
      {
        params: Promise.resolve({ chainId: '1' }),
      },
    )
    abort.abort()
    open()
    state.gate = undefined
    expect((await pending).status).toBe(200)
    await advance(10)
    for (let i = 0; i < 5; i++) {
      const head = await streamHEAD(
        new Request('http://x/networks/1/stream', { method: 'HEAD', headers: { [IDENTITY_HEADER]: identity } }),
        {
          params: Promise.resolve({ chainId: '1' }),
        },
      )
      expect(head.status).toBe(200)
      expect(head.headers.get('content-type')).toMatch(/^text\/event-stream/)
      expect(head.body).toBeNull()
    }
    // both of the key's slots are free
    const a = await connect({ key: 'limited' })
    const b = await connect({ key: 'limited' })
    expect([a.res.status, b.res.status]).toEqual([200, 200])
    // and now taken: a HEAD is refused as a GET would be, and takes nothing
    const full = await streamHEAD(new Request('http://x/networks/1/stream', { method: 'HEAD', headers: { [IDENTITY_HEADER]: identity } }), {
      params: Promise.resolve({ chainId: '1' }),
    })
    expect(full.status).toBe(429)
    a.abort()
    await advance(10)
    const c = await connect({ key: 'limited' })
    expect(c.res.status).toBe(200)
    b.abort()
    c.abort()
  })
})

describe('feesEvent', () => {
  const bodies = {
    suggestedGasFees: '{"a":1}',
    busyThreshold: '{"busyThreshold":"1"}',
    baseFeePercentile: '{"baseFeePercentile":"1"}',
    baseFeeHistory: '["1"]',
    baseFeeForecast: '{"blockNumber":7}',
  }
  const data = (event: string) => JSON.parse(/^data: (.*)$/m.exec(event)?.[1] ?? 'null') as Record<string, unknown>

  test('default: the five bodies, no blobFees on a chain without blobs', () => {
    expect(Object.keys(data(feesEvent(7, false, bodies)))).toEqual([
      'blockNumber',
      'stale',
      'suggestedGasFees',
      'busyThreshold',
      'baseFeePercentile',
      'baseFeeHistory',
      'baseFeeForecast',
    ])
  })

  test("behavior: on a chain with blobs, GET blobFees' body goes last, byte for byte", () => {
    const blob = '{"blockNumber":7,"estimatedBlobBaseFee":"0.000000001"}'
    const event = feesEvent(7, true, bodies, blob)
    expect(event).toMatch(/^event: fees\nid: 7\ndata: .*\n\n$/)
    expect(Object.keys(data(event)).at(-1)).toBe('blobFees')
    expect(event).toContain(`,"blobFees":${blob}}`)
    expect(data(event).stale).toBe(true)
  })
})
