// The feed on every chain's clock, end to end: `next start` against real anvil devnets whose blocks
// come on different clocks (wall-clock slots reaching the node at varying delays, a clock drifting
// from the wall clock, irregular gaps), each behind a counting proxy, so reads are counted at the node.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startCountingProxy, type CountingProxy } from '@/scripts/devnet/counting-proxy'
import { startDevnet, type Devnet, type DevnetOptions } from '@/scripts/devnet/devnet'
import { rpc } from '@/scripts/devnet/json-rpc'
import { startService, type Service } from '@/scripts/devnet/service'
import { openSse, type SseStream } from '@/scripts/stream/sse-client'
import { load } from '@/scripts/bench/load'
import { basic, eventually } from './helpers'

const KEY: [string, string] = ['clocks', 'clocks-secret-0123456789']

/**
 * `limit`: reads per new block asserted, 1.1 on every clock with slots, over MEASURE_BLOCKS blocks
 * counted after `settleBlocks` (10 by default: the read timing finds the chain's phase in its first
 * reads). `slackReads`: reads allowed past the limit: three on the clocks with slots, the drifting one
 * included: a 2-core CI machine running six anvils, the service and autocannon delays a timer now and
 * then past a block's margin, and one late read costs a retry. The target itself (1.1) is measured by
 * `npm run bench:feed` (docs/benchmarks.md), which prints reads per block for each clock. The irregular
 * chain keeps the hard ceiling (2): it has no slots, is read once per mean interval, and the blocks in
 * a 40-s window vary by about ±2 around their mean.
 */
type Clock = {
  id: number
  name: string
  devnet: DevnetOptions
  loaded?: boolean
  slackReads?: number
  /** Blocks the read timing is given to find the chain's phase before reads are counted (10 by default). */
  settleBlocks?: number
  limit?: number
}
const CLOCKS: Clock[] = [
  {
    id: 31_501,
    name: '2 s slots, blocks 50–300 ms late',
    devnet: { blockTimeSec: 2, clock: { kind: 'slots', delayMs: [50, 300] } },
    limit: 1.1,
    slackReads: 3,
  },
  { id: 31_502, name: '1 s slots', devnet: { blockTimeSec: 1, clock: { kind: 'slots', delayMs: [50, 300] } }, limit: 1.1, slackReads: 3 },
  {
    id: 31_503,
    name: '2 s blocks stamped 1 s apart',
    devnet: { blockTimeSec: 2, clock: { kind: 'drift', stampStepSec: 1 } },
    limit: 1.1,
    slackReads: 3,
  },
  {
    id: 31_504,
    name: 'irregular 0.5–3.5 s blocks',
    devnet: { blockTimeSec: 2, clock: { kind: 'irregular', gapMs: [500, 3_500] } },
    slackReads: 2,
    limit: 2,
  },
  {
    id: 31_505,
    name: '~1 s devnet under load (50 connections, 200 streams)',
    devnet: { blockTimeSec: 1, clock: { kind: 'slots', delayMs: [50, 300] }, liveTraffic: true },
    loaded: true,
    limit: 1.1,
    slackReads: 3,
  },
]
/** A slot chain whose proxy a test slows down (the slow provider). */
const SLOWABLE = 31_506

const nodes = new Map<number, { devnet: Devnet; proxy: CountingProxy }>()
let service: Service
const streams: SseStream[] = []

const auth = { authorization: basic(KEY) }
const head = (id: number) => rpc<string>(nodes.get(id)!.devnet.url, 'eth_blockNumber').then(Number)
const reads = (id: number) => nodes.get(id)!.proxy.counts().eth_feeHistory ?? 0
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function ask(id: number) {
  const res = await fetch(`${service.url}/networks/${id}/suggestedGasFees`, { headers: auth })
  await res.arrayBuffer()
  return { status: res.status, block: Number(res.headers.get('x-block-number')), stale: res.headers.get('x-data-stale') }
}

/** Waits until the chain's node has reached block `target`, with a deadline of 4 s a block and 30 s more. */
const untilHead = async (c: Clock, target: number) => {
  const blocks = Math.max(0, target - (await head(c.id)))
  await eventually(
    async () => ((await head(c.id)) >= target ? true : undefined),
    `chain ${c.id} at block ${target}`,
    blocks * 4_000 + 30_000,
    200,
  )
}

/** A client asking every `everyMs`, `times` times: per answer, the node's head just before it asked, and the answer's block and stale mark. */
async function poller(id: number, everyMs: number, times: number) {
  const answers: { nodeHead: number; block: number; stale: string | null; status: number }[] = []
  for (let i = 0; i < times; i++) {
    const started = Date.now()
    const nodeHead = await head(id)
    answers.push({ nodeHead, ...(await ask(id)) })
    await sleep(started + everyMs - Date.now())
  }
  return answers
}

beforeAll(async () => {
  const all: [number, DevnetOptions][] = [
    ...CLOCKS.map((c): [number, DevnetOptions] => [c.id, c.devnet]),
    [SLOWABLE, { blockTimeSec: 1, clock: { kind: 'slots', delayMs: [50, 300] } }],
  ]
  await Promise.all(
    all.map(async ([id, options]) => {
      const devnet = await startDevnet({ chainId: id, seedBlocks: 40, liveTraffic: false, ...options })
      nodes.set(id, { devnet, proxy: await startCountingProxy(devnet.url) })
    }),
  )
  service = await startService({
    env: {
      API_KEYS: KEY.join(':'),
      RATE_LIMITS: `${KEY[0]}=0`,
      USE_PUBLIC_RPCS: 'false',
      REQUEST_LOG: 'false',
      STREAM_MAX_PER_KEY: '1000',
      ...Object.fromEntries([...nodes].map(([id, n]) => [`RPC_URL_${id}`, n.proxy.url])),
    },
  })
}, 180_000)

afterAll(async () => {
  for (const s of streams) s.close()
  await service?.stop().catch(() => {})
  for (const { devnet, proxy } of nodes.values()) {
    await proxy.close().catch(() => {})
    await devnet.stop().catch(() => {})
  }
})

describe('the feed on every chain clock', () => {
  test.concurrent(
    'behavior: at most 1.1 eth_feeHistory reads per new block (three reads of slack) on the slot, drifting and loaded clocks, the ceiling of two on the irregular one, with a stream subscriber, a client every 300 ms, and load',
    { timeout: 200_000 },
    async () => {
      /** Blocks over which reads are counted. */
      const MEASURE_BLOCKS = 20
      const results = await Promise.all(
        CLOCKS.map(async (c) => {
          const path = `${service.url}/networks/${c.id}`
          const subscribers = c.loaded ? 200 : 1
          for (let i = 0; i < subscribers; i++) streams.push(await openSse(`${path}/stream`, auth))
          let polling = true
          const client = (async () => {
            while (polling) {
              await ask(c.id)
              await sleep(300)
            }
          })()
          // the read timing finds the chain's phase in its first reads
          await untilHead(c, (await head(c.id)) + (c.settleBlocks ?? 10))
          const [readsBefore, headBefore] = [reads(c.id), await head(c.id)]
          // the load runs at least as long as the measured blocks take (their wall time and a margin)
          const loadRun = c.loaded
            ? load(`${path}/suggestedGasFees`, {
                connections: 50,
                seconds: Math.ceil(MEASURE_BLOCKS * (c.devnet.blockTimeSec ?? 1)) + 10,
                headers: auth,
              })
            : undefined
          await untilHead(c, headBefore + MEASURE_BLOCKS)
          const [readsAfter, headAfter] = [reads(c.id), await head(c.id)]
          await loadRun
          polling = false
          await client
          return {
            name: c.name,
            reads: readsAfter - readsBefore,
            blocks: headAfter - headBefore,
            slack: c.slackReads ?? 0,
            limit: c.limit ?? 2,
          }
        }),
      )
      console.log(results.map((r) => `${r.name}: ${r.reads} reads / ${r.blocks} blocks = ${(r.reads / r.blocks).toFixed(3)}`).join('\n'))
      for (const r of results) {
        expect(r.reads, r.name).toBeLessThanOrEqual(r.limit * r.blocks + r.slack)
      }
    },
  )

  test.concurrent(
    'behavior: a client polling every 10 s or 15 s on 2 s blocks gets the head or the block before it, never marked stale; every 8 s on 1 s blocks, a new block each time',
    // 90 s of polling by design; the rest is room for a loaded machine (docs/benchmarks.md, "The unit suite under load")
    { timeout: 240_000 },
    async () => {
      const [tenSeconds, fifteenSeconds, eightSeconds] = await Promise.all([
        poller(CLOCKS[0]!.id, 10_000, 8),
        poller(CLOCKS[0]!.id, 15_000, 6),
        poller(CLOCKS[1]!.id, 8_000, 8),
      ])
      // a read a 2-core CI machine delays by more than a block's margin leaves the window two blocks
      // behind for a moment (seen once in a fresh-clone CI run: block 46 with the node at 48, the
      // feed then 8 blocks from its cold start): one such answer per client is allowed and printed,
      // never more, and never further behind
      for (const answers of [tenSeconds, fifteenSeconds, eightSeconds]) {
        const late = answers.filter((a) => a.block < a.nodeHead - 1)
        if (late.length > 0) console.log('answers two blocks behind the node:', JSON.stringify(late))
        expect(late.length).toBeLessThanOrEqual(1)
        for (const a of answers) {
          expect(a.status).toBe(200)
          expect(a.block).toBeGreaterThanOrEqual(a.nodeHead - 2)
          expect(a.stale).toBe('false')
        }
      }
      for (let i = 1; i < eightSeconds.length; i++) expect(eightSeconds[i]!.block).toBeGreaterThan(eightSeconds[i - 1]!.block)
    },
  )
})

describe('a slow provider', () => {
  test(
    'behavior: with every answer of the node taking 3 s, under load, p99 stays within 2× the healthy p99 + 50 ms',
    { timeout: 120_000 },
    async () => {
      const url = `${service.url}/networks/${SLOWABLE}/suggestedGasFees`
      expect((await ask(SLOWABLE)).status).toBe(200)
      const healthy = await load(url, { connections: 50, seconds: 15, headers: auth })
      nodes.get(SLOWABLE)!.proxy.delayMs = 3_000
      try {
        const slow = await load(url, { connections: 50, seconds: 15, headers: auth })
        console.log(`p99 healthy ${healthy.p99} ms, slow provider ${slow.p99} ms`)
        expect(healthy.errors).toBe(0)
        expect(slow.errors).toBe(0)
        expect(slow.p99).toBeLessThanOrEqual(2 * healthy.p99 + 50)
      } finally {
        nodes.get(SLOWABLE)!.proxy.delayMs = 0
      }
    },
  )
})
