import { afterEach, describe, expect, test, vi } from 'vitest'
import { REWARD_PERCENTILES } from '@/lib/core/fee-math/estimator'
import { percentileNearestRank } from '@/lib/core/fee-math/statistics'
import { FeeMarketUnsupportedError, UpstreamBadResponseError, UpstreamUnavailableError } from '@/lib/core/contract/errors'
import { readFeeWindow } from '@/lib/upstream/read-fee-window'
import { capFromRefusal } from '@/lib/upstream/fee-history-cap'
import { CHAIN_ID_RECHECK_MS } from '@/lib/upstream/url-health'
import { MIN_ANCHOR_DISTANCE, MIN_ANCHOR_SECONDS } from '@/lib/upstream/read-from-url'
import { RpcFeeHistorySchema } from '@/lib/upstream/schemas'
import { at } from '../../support/at'
import { startFakeRpc, type FakeMode, type FakeRpc, type FakeShape } from '../../support/fake-rpc'
import { chainOf } from '../../support/family-chains'
import { mainnetFakeChain } from '../../support/mainnet-blocks'

const GWEI_TENTH = 100_000_000n

const chain = mainnetFakeChain()
const servers: FakeRpc[] = []
afterEach(async () => {
  vi.useRealTimers()
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

/**
 * Runs `start` under a fake clock (setTimeout and Date only: the network runs on real time) and
 * reports whether the promise had settled just before `ms` of fake time and right at it.
 */
async function settlesAt<T>(ms: number, start: () => Promise<T>): Promise<{ before: boolean; result: T | Error }> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  let settled = false
  const p = start()
    .then(
      (v) => v,
      (e: Error) => e,
    )
    .finally(() => {
      settled = true
    })
  await vi.advanceTimersByTimeAsync(ms - 1)
  const before = settled
  await vi.advanceTimersByTimeAsync(1)
  return { before, result: await p }
}

async function fake(mode: FakeMode = 'ok', shape: FakeShape = {}) {
  const s = await startFakeRpc({ chainId: 1, ...chain, mode, ...shape })
  servers.push(s)
  return s
}

const read = (rpcUrls: string[], extra: Partial<Parameters<typeof readFeeWindow>[0]> = {}) =>
  readFeeWindow({
    chainId: 1,
    rpcUrls,
    blockCount: 500,
    rewardPercentiles: REWARD_PERCENTILES,
    // the fake node is real HTTP on this machine: a deadline a loaded one meets (the deadline's own tests set theirs)
    timeoutMs: 10_000,
    fallbackBlockTimeMs: 9_999,
    ...extra,
  })

// real HTTP to fake nodes: each test's budget is the read deadline's, with room (docs/development.md, "Slow tests")
describe('readFeeWindow', { timeout: 30_000 }, () => {
  test('default: the window of real mainnet blocks, validated and converted to decimal wei', async () => {
    const s = await fake()
    const w = await read([s.url])
    // the 100 recorded blocks are the newest of the 500 (the fake chain's earlier blocks sit at the gas target)
    expect(w.oldestBlock).toBe(15_627_432)
    expect(w.headNumber).toBe(15_627_931)
    expect(w.baseFeePerGas).toHaveLength(500)
    expect(w.baseFeePerGas[400]).toBe(String(at(chain.blocks, 0).baseFee))
    expect(w.nextBaseFeePerGas).toBe(String(chain.nextBaseFee))
    expect(w.reward[0]).toHaveLength(REWARD_PERCENTILES.length)
    expect(w.blockIntervalMs).toBe(12_000)
    expect(w.headTimestamp).toBe(at(chain.blocks, 99).timestamp)
  })

  test('behavior: a cold read is one round (one JSON-RPC batch, with the finalized block); so is a warm one', async () => {
    const s = await fake()
    const first = await read([s.url])
    expect(s.requests()).toBe(1)
    expect(s.calls).toEqual(['eth_chainId', 'eth_getBlockByNumber', 'eth_feeHistory', 'eth_getBlockByNumber'])
    expect(first.intervalAnchor?.number).toBeLessThan(first.headNumber)
    expect(first.blockIntervalMs).toBe(12_000)
    await read([s.url], { previous: first })
    expect(s.requests()).toBe(2)
    expect(s.calls.slice(4)).toEqual(['eth_getBlockByNumber', 'eth_feeHistory'])
  })

  test('behavior: a node without the finalized tag costs a cold read one more call', async () => {
    const s = await fake('no-finalized')
    const w = await read([s.url])
    expect(s.requests()).toBe(2)
    expect(w.intervalAnchor?.number).toBe(w.oldestBlock)
    expect(w.blockIntervalMs).toBe(12_000)
  })

  test('behavior: fails over to the next URL and skips the failed one afterwards', async () => {
    const bad = await fake('garbage')
    const good = await fake()
    const w = await read([bad.url, good.url])
    expect(w.headNumber).toBe(15_627_931)
    const badRequests = bad.requests()
    await read([bad.url, good.url])
    expect(bad.requests()).toBe(badRequests)
  })

  test.each([
    ['garbage', UpstreamBadResponseError, /not JSON/],
    ['wrong-chain', UpstreamBadResponseError, /serves chain 2/],
    ['bad-feehistory', UpstreamBadResponseError, /malformed/],
    ['absurd', UpstreamBadResponseError, /malformed/],
    ['http500', UpstreamBadResponseError, /HTTP 500/],
    ['wrong-types', UpstreamBadResponseError, /malformed/],
  ] as const)('error: %s', async (mode, cls, message) => {
    const s = await fake(mode)
    const err = await read([s.url]).catch((e) => e)
    expect(err).toBeInstanceOf(cls)
    expect(err.message).toMatch(message)
    expect(err.message).not.toContain('127.0.0.1')
    // nor its cause: Next logs a failed revalidation's error with the cause
    expect(JSON.stringify(err.cause ?? {}) + String(err.cause)).not.toContain('127.0.0.1')
  })

  test('error: a node that starts serving another chain is refused once its chain id is asked again (each minute), not let pass for good', async () => {
    const s = await fake()
    expect((await read([s.url])).headNumber).toBe(15_627_931)
    s.mode = 'wrong-chain'
    const asked = () => s.calls.filter((m) => m === 'eth_chainId').length
    const before = asked()
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
    try {
      // within the minute: the chain id found stands, and is not asked with every read
      await read([s.url])
      expect(asked()).toBe(before)
      vi.setSystemTime(Date.now() + CHAIN_ID_RECHECK_MS)
      const err = await read([s.url]).catch((e) => e)
      expect(err).toBeInstanceOf(UpstreamBadResponseError)
      expect(err.message).toMatch(/serves chain 2/)
    } finally {
      vi.useRealTimers()
    }
  })

  test('error: a node that answers every page of older blocks with its newest ones is refused, and the message says so', async () => {
    const s = await fake('newest-only')
    const err = await read([s.url]).catch((e) => e)
    expect(err).toBeInstanceOf(UpstreamBadResponseError)
    expect(err.message).toMatch(/asked to end at block 15627921, came back as blocks 15627922–15627931/)
  })

  test('error: a node that never answers gives UpstreamUnavailableError when the timeout expires', async () => {
    const s = await fake('hang')
    const { before, result } = await settlesAt(400, () => read([s.url], { timeoutMs: 400 }))
    expect(before).toBe(false)
    expect(result).toBeInstanceOf(UpstreamUnavailableError)
  })

  test('error: a head that went back 70 blocks to an older timestamp (a node behind) is refused', async () => {
    const s = await fake()
    const before = await read([s.url])
    s.mode = 'reorg'
    const err = await read([s.url], { previous: before }).catch((e) => e)
    expect(err).toBeInstanceOf(UpstreamBadResponseError)
    expect(err.message).toMatch(/went back from 15627931 to 15627861/)
  })

  test('behavior: a lower head with a later timestamp is a chain started anew: taken at once, its interval measured anew', async () => {
    const s = await fake()
    const first = await read([s.url])
    // the last window as an earlier chain left it, 10 and 100 blocks higher and a moment older, other base fees
    // (so its settled blocks differ), its anchor 600 s older than this chain's block of that number
    for (const ahead of [10, 100]) {
      const oldChain = {
        ...first,
        headNumber: first.headNumber + ahead,
        headTimestamp: first.headTimestamp - 1,
        baseFeePerGas: first.baseFeePerGas.map(() => '1'),
        intervalAnchor: { number: first.oldestBlock, timestamp: first.headTimestamp - 600 - (first.headNumber - first.oldestBlock) * 12 },
      }
      const w = await read([s.url], { previous: oldChain })
      expect(w.headNumber).toBe(first.headNumber)
      expect(w.intervalAnchor?.number).toBe(w.oldestBlock)
      expect(w.blockIntervalMs).toBe(12_000)
    }
  })

  test('error: a lower head that is no later (a node behind the last one read) is refused, unless within max(2 s, 2 intervals)', async () => {
    const s = await fake()
    const first = await read([s.url])
    // no news: 1 or 2 blocks of 12 s behind; on 250-ms blocks, 4 blocks with the same timestamp or 1 s older
    const cases = [
      { ahead: 1, seconds: 12, intervalMs: 12_000, noNews: true },
      { ahead: 2, seconds: 24, intervalMs: 12_000, noNews: true },
      { ahead: 4, seconds: 0, intervalMs: 250, noNews: true },
      { ahead: 4, seconds: 1, intervalMs: 250, noNews: true },
      { ahead: 3, seconds: 36, intervalMs: 12_000, noNews: false },
      { ahead: 100, seconds: 1_200, intervalMs: 12_000, noNews: false },
      { ahead: 12, seconds: 3, intervalMs: 250, noNews: false },
    ]
    for (const { ahead, seconds, intervalMs, noNews } of cases) {
      const newer = {
        ...first,
        headNumber: first.headNumber + ahead,
        headTimestamp: first.headTimestamp + seconds,
        blockIntervalMs: intervalMs,
        fetchedAt: 0,
      }
      if (noNews) {
        const w = await read([s.url], { previous: newer })
        expect(w).toEqual({ ...newer, fetchedAt: w.fetchedAt })
        expect(w.fetchedAt).toBeGreaterThan(0)
        continue
      }
      const err = await read([s.url], { previous: newer }).catch((e) => e)
      expect(err).toBeInstanceOf(UpstreamBadResponseError)
      expect(err.message).toMatch(new RegExp(`went back from ${newer.headNumber} to ${first.headNumber}: the node is behind`))
      // a last window too old to vouch for the head: the node's window is taken, measured anew
      const taken = await read([s.url], { previous: newer, previousVouches: false })
      expect(taken.headNumber).toBe(first.headNumber)
      expect(taken.blockIntervalMs).toBe(12_000)
    }
  })

  test('behavior: a clock that leapt keeps the last interval, from an anchor at the new head, until it is far enough back', async () => {
    const s = await fake()
    const first = await read([s.url])
    const anchor = first.intervalAnchor!
    // the head before, with every timestamp until then an hour earlier: the leap came with this head
    const beforeLeap = {
      ...first,
      headNumber: first.headNumber - 1,
      headTimestamp: first.headTimestamp - 12 - 3_600,
      intervalAnchor: { number: anchor.number, timestamp: anchor.timestamp - 3_600 },
    }
    const w = await read([s.url], { previous: beforeLeap })
    expect(w.intervalAnchor).toEqual({ number: first.headNumber, timestamp: first.headTimestamp })
    expect(w.blockIntervalMs).toBe(12_000)
    // read again at the same head: the anchor and the interval stand
    const again = await read([s.url], { previous: { ...w, blockIntervalMs: 12_345 } })
    expect(again.intervalAnchor).toEqual(w.intervalAnchor)
    expect(again.blockIntervalMs).toBe(12_345)
    // a slower pace without a leap (9 blocks in 110 s) is measured, not a leap
    const slow = await read([s.url], { previous: { ...first, headNumber: first.headNumber - 9, headTimestamp: first.headTimestamp - 110 } })
    expect(slow.intervalAnchor).toEqual(anchor)
    // an hour without a block that the wall clock saw pass too (a chain idle without transactions) is no leap
    const idle = { ...beforeLeap, fetchedAt: Date.now() - 3_600_000 }
    expect((await read([s.url], { previous: idle })).intervalAnchor).toEqual(idle.intervalAnchor)
    // a failover while the leap's anchor is young reads that block again: the same block keeps it, another does not
    const [a, b] = [s, await fake()]
    const fromA = { ...w, blockIntervalMs: 12_345, source: 0 }
    a.mode = 'http500'
    const kept = await read([a.url, b.url], { previous: fromA })
    expect([kept.source, kept.intervalAnchor, kept.blockIntervalMs]).toEqual([1, w.intervalAnchor, 12_345])
    const other = { ...fromA, intervalAnchor: { ...w.intervalAnchor!, timestamp: w.intervalAnchor!.timestamp - 5 } }
    const anew = await read([a.url, b.url], { previous: other })
    expect([anew.intervalAnchor?.number, anew.blockIntervalMs]).toEqual([anew.oldestBlock, 12_000])
  })

  test('behavior: after a failover to another URL the anchor is read again from that node', async () => {
    const a = await fake()
    const b = await fake()
    const first = await read([a.url, b.url])
    expect(first.source).toBe(0)
    // the first URL's chain had its anchor block an hour earlier (another chain under the same id)
    const fromA = { ...first, intervalAnchor: { number: first.intervalAnchor!.number, timestamp: first.intervalAnchor!.timestamp - 3_600 } }
    a.mode = 'http500'
    const w = await read([a.url, b.url], { previous: fromA })
    expect(w.source).toBe(1)
    expect(w.blockIntervalMs).toBe(12_000)
    expect(b.calls.filter((c) => c === 'eth_getBlockByNumber').length).toBeGreaterThanOrEqual(2)
  })

  test('behavior: a node that sends headers and then stalls cannot hold the read: the next URL answers in time', async () => {
    const stalled = await fake('stall-body')
    const good = await fake()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const p = read([stalled.url, good.url], { timeoutMs: 2_000 })
    // the first of two URLs gets half the budget; after it, no more time passes, so the answer can
    // only come from the second URL within the rest
    await vi.waitFor(() => expect(stalled.requests()).toBe(1))
    await vi.advanceTimersByTimeAsync(1_000)
    const w = await p
    expect(w.headNumber).toBe(15_627_931)
    expect(good.requests()).toBe(1)
  })

  test('error: a stalled body alone ends as UpstreamUnavailableError when the timeout expires', async () => {
    const stalled = await fake('stall-body')
    const { before, result } = await settlesAt(600, () => read([stalled.url], { timeoutMs: 600 }))
    expect(before).toBe(false)
    expect(result).toBeInstanceOf(UpstreamUnavailableError)
  })

  test("error: a provider's rate limit (JSON-RPC -32005) is unavailability (503), not garbage (502)", async () => {
    const s = await fake('rate-limited')
    const err = await read([s.url]).catch((e) => e)
    expect(err).toBeInstanceOf(UpstreamUnavailableError)
    expect(err.message).toMatch(/-32005/)
  })

  test.each([
    ['HTTP 429 with one JSON-RPC error object (Alchemy)', 'http429-json', /HTTP 429/],
    ['HTTP 200 with one error object for the whole batch, -32005 (Infura)', 'batch-error', /-32005/],
    ['HTTP 503 whose JSON body is not JSON', 'http503-json-garbage', /HTTP 503/],
  ] as const)("error: a provider's %s is unavailability (503), not garbage (502)", async (_, mode, says) => {
    const s = await fake(mode)
    const err = await read([s.url]).catch((e) => e)
    expect(err).toBeInstanceOf(UpstreamUnavailableError)
    expect(err.message).toMatch(says)
  })

  test('behavior: one node without baseFeePerGas does not condemn the chain when another URL has it', async () => {
    const odd = await fake('no-basefee')
    const good = await fake()
    const w = await read([odd.url, good.url])
    expect(w.headNumber).toBe(15_627_931)
  })

  test('behavior: a chain without baseFeePerGas is read as a legacy window: base fees 0, rewards the gas prices', async () => {
    const s = await fake('no-basefee')
    const w = await read([s.url])
    expect(w.legacy).toBe(true)
    expect(w.headNumber).toBe(15_627_931)
    expect(new Set([...w.baseFeePerGas, w.nextBaseFeePerGas])).toEqual(new Set(['0']))
    // the head block's gas prices: its base fee plus each tip, at the node's percentiles
    const head = chain.blocks.at(-1)!
    const prices = head.tips.map((t) => head.baseFee + t)
    expect(w.reward.at(-1)).toEqual(REWARD_PERCENTILES.map((p) => String(percentileNearestRank(prices, p))))
  })

  test('behavior: the first read of a chain asks every node before calling it legacy; beside a failing one it concludes nothing (the read fails and is retried)', async () => {
    const odd = await fake('no-basefee')
    const down = await fake('http500')
    // the failing node may be the EIP-1559 one: calling the chain legacy here could lock it in
    const err = await read([odd.url, down.url]).catch((e: unknown) => e)
    expect(err instanceof UpstreamUnavailableError || err instanceof UpstreamBadResponseError).toBe(true)
    expect(down.requests()).toBe(1)
    // every node answers without a fee market: the chain has none
    const other = await fake('no-basefee')
    expect((await read([odd.url, other.url])).legacy).toBe(true)
  })

  test('behavior: a chain known legacy is answered by the first node, without asking the others', async () => {
    const a = await fake('no-basefee')
    const b = await fake('no-basefee')
    const first = await read([a.url, b.url])
    const asked = b.requests()
    const next = await read([a.url, b.url], { previous: first })
    expect(next.legacy).toBe(true)
    expect(b.requests()).toBe(asked)
  })

  test('error: a node without baseFeePerGas on a chain that had a fee market at the last read is the odd one (FeeMarketUnsupportedError)', async () => {
    const s = await fake()
    const before = await read([s.url])
    s.mode = 'no-basefee'
    const err = await read([s.url], { previous: before }).catch((e) => e)
    expect(err).toBeInstanceOf(FeeMarketUnsupportedError)
  })

  test('error: a node whose blocks carry no baseFeePerGas but whose eth_feeHistory reports base fees is refused (502)', async () => {
    const s = await fake('headers-without-basefee')
    const err = await read([s.url]).catch((e) => e)
    expect(err).toBeInstanceOf(UpstreamBadResponseError)
    expect(err.message).toMatch(/base fees for blocks that carry none/)
  })

  test('behavior: a fee history with no reward at all (null) is a window without tip data, not a malformed answer', () => {
    const fh = RpcFeeHistorySchema.parse({ oldestBlock: '0x1', baseFeePerGas: ['0x1', '0x1'], gasUsedRatio: [0.5], reward: null })
    expect(fh.reward ?? null).toBeNull()
    expect(() => RpcFeeHistorySchema.parse({ oldestBlock: '0x1', baseFeePerGas: ['0x1', '0x1'], gasUsedRatio: [0.5], reward: [] })).toThrow(
      /one row per block/,
    )
  })

  test("error: Sei's eth_gasPrice (every fee's floor) read with the window; a node that does not answer it fails the read", async () => {
    const priced = await fake('ok', { gasPrice: 3_000_000_000n })
    expect((await read([priced.url], { chainReads: ['eth_gasPrice'] })).chainReads).toEqual({ gasPrice: '3000000000' })
    const without = await fake()
    await expect(read([without.url], { chainReads: ['eth_gasPrice'] })).rejects.toThrow(UpstreamBadResponseError)
    // HyperEVM's big-lane price alone: the read stands without it (that lane answers 502)
    expect((await read([without.url], { chainReads: ['eth_bigBlockGasPrice'] })).chainReads).toEqual({})
  })

  test('error: nothing listening gives UpstreamUnavailableError', async () => {
    const err = await read(['http://127.0.0.1:9']).catch((e) => e)
    expect(err).toBeInstanceOf(UpstreamUnavailableError)
  })

  test('behavior: a provider that caps eth_feeHistory at 100 blocks is paged: the whole 500-block window, in one more batch', async () => {
    const whole = await read([(await fake()).url])
    const capped = await fake('ok', { feeHistoryCap: 100 })
    const w = await read([capped.url])
    expect(capped.requests()).toBe(2)
    expect(w.oldestBlock).toBe(whole.oldestBlock)
    expect(w.baseFeePerGas).toEqual(whole.baseFeePerGas)
    expect(w.gasUsedRatio).toEqual(whole.gasUsedRatio)
    expect(w.reward).toEqual(whole.reward)
    expect(w.nextBaseFeePerGas).toBe(whole.nextBaseFeePerGas)
  })

  test('behavior: a node that refuses more than 100 blocks, naming its cap, is read in pages of 100 from then on', async () => {
    const whole = await read([(await fake()).url])
    const limited = await fake('ok', { feeHistoryLimit: 100 })
    for (let i = 0; i < 2; i++) {
      const before = limited.calls.length
      const w = await read([limited.url])
      expect(w.baseFeePerGas).toEqual(whole.baseFeePerGas)
      expect(w.reward).toEqual(whole.reward)
      // the first read is refused once, then asks 100; the next asks 100 at once: 1 call and 4 older pages
      expect(limited.calls.slice(before).filter((c) => c === 'eth_feeHistory')).toHaveLength(i === 0 ? 6 : 5)
    }
  })

  test.each([
    ['block count 500 exceeds the maximum of 100', 100],
    ['Block count exceeds the maximum of 100.', 100],
    ['requested range 0x1f4 too large, max blocks: 128', 128],
    ['too many blocks: 500 > 1.5e2', undefined],
    ['daily request count exceeded, request rate limited', undefined],
    ['block range 21000000-21000500: max 1024', undefined],
  ])('capFromRefusal: a node refusing with %s', (details, cap) => {
    const refusal = Object.assign(new Error('Invalid parameters were provided to the RPC method.'), { code: -32602, details })
    expect(capFromRefusal(new Error('RPC Request failed.', { cause: refusal }), 500)).toBe(cap)
  })

  test('capFromRefusal: a transport error (its text holds the request: blocks, percentiles) names no cap', () => {
    const body =
      '{"method":"eth_getBlockByNumber","params":["latest",false]},{"method":"eth_feeHistory","params":["0x1f4","latest",[0,1,5,10,50,100]]}'
    for (const err of [
      Object.assign(new Error(`HTTP request failed. Status: 500 URL: http://127.0.0.1:38000 Request body: ${body}`), {
        details: 'Internal Server Error',
      }),
      new Error(`The request took too long to respond. Request body: ${body}`),
    ])
      expect(capFromRefusal(err, 500)).toBeUndefined()
  })

  test('error: a node that serves 100 blocks and no older ones is refused, never served as the 500-block history', async () => {
    const err = await read([(await fake('short-history')).url]).catch((e) => e)
    expect(err).toBeInstanceOf(UpstreamBadResponseError)
    expect(err.message).toMatch(/served 100 of the 500 blocks/)
  })

  test('behavior: a young chain with fewer blocks than the window is served as it is', async () => {
    const young = mainnetFakeChain().blocks.map((b, i) => ({ ...b, number: i }))
    const s = await startFakeRpc({ chainId: 1, blocks: young, nextBaseFee: chain.nextBaseFee })
    servers.push(s)
    const w = await read([s.url])
    expect(w.oldestBlock).toBe(0)
    expect(w.baseFeePerGas).toHaveLength(100)
  })

  test.each(['[]', 'null'] as const)(
    'behavior: empty blocks whose reward rows come back as %s count as blocks without tips',
    async (emptyRewards) => {
      const blocks = chain.blocks.map((b, i) => (i % 10 === 0 ? { ...b, gasUsedRatio: 0, tips: [] } : b))
      const s = await startFakeRpc({ chainId: 1, blocks, nextBaseFee: chain.nextBaseFee, emptyRewards })
      servers.push(s)
      const w = await read([s.url])
      const rows = w.reward.slice(400)
      const withoutTips = blocks.filter((b) => b.tips.length === 0).length
      expect(withoutTips).toBeGreaterThanOrEqual(10)
      expect(rows.filter((r) => r.length === 0)).toHaveLength(withoutTips)
      expect(rows.filter((r) => r.length === REWARD_PERCENTILES.length)).toHaveLength(100 - withoutTips)
    },
  )

  test("error: a next base fee outside the protocol bound of the last one (a node's 1000× base fee) is refused", async () => {
    const s = await startFakeRpc({ chainId: 1, ...chain, nextBaseFee: chain.nextBaseFee * 1000n })
    servers.push(s)
    const bounds = { risePpm: 125_000n, fallPpm: 125_000n }
    const err = await read([s.url], { baseFeeBounds: bounds }).catch((e) => e)
    expect(err).toBeInstanceOf(UpstreamBadResponseError)
    expect(err.message).toMatch(/block 15627932 .* outside the chain's protocol bound of \+12\.5% \/ −12\.5%/)
    // the real blocks themselves are within it
    expect((await read([(await fake()).url], { baseFeeBounds: bounds })).headNumber).toBe(15_627_931)
  })

  test('error: blocks that changed since the last read, deeper than a reorg reaches, are refused', async () => {
    const s = await fake()
    const before = await read([s.url])
    s.mode = 'doubled'
    const err = await read([s.url], { previous: before }).catch((e) => e)
    expect(err).toBeInstanceOf(UpstreamBadResponseError)
    expect(err.message).toMatch(/changed since the last read/)
  })

  test('behavior: a finalized block 2 blocks back (BSC) does not measure the interval: a block at least 64 back does', async () => {
    const s = await fake('ok', { finalizedDepth: 2 })
    const w = await read([s.url])
    expect(w.headNumber - (w.intervalAnchor?.number ?? w.headNumber)).toBeGreaterThanOrEqual(MIN_ANCHOR_DISTANCE)
    expect(w.blockIntervalMs).toBe(12_000)
  })

  test.each([
    ['BSC', 450, 60_000_000],
    ['Monad', 300, 40_000_000],
  ])(
    'behavior: %s at %i ms: a finalized block 64 back spans under 60 s of whole-second timestamps: the window’s oldest block measures it',
    async (_, slotMs, head) => {
      const specs = Array.from({ length: 500 }, () => ({ baseFee: 0n, ratio: 0.2, tips: [GWEI_TENTH] }))
      const s = await startFakeRpc({ chainId: 1, ...chainOf(specs, { head, slotMs, next: 0n }), finalizedDepth: 64 })
      servers.push(s)
      const w = await read([s.url])
      expect(w.intervalAnchor?.number).toBe(w.oldestBlock)
      const span = w.headTimestamp - w.intervalAnchor!.timestamp
      expect(span).toBeGreaterThanOrEqual(MIN_ANCHOR_SECONDS)
      expect(w.blockIntervalMs).toBe(Math.round((span * 1000) / (w.headNumber - w.oldestBlock)))
      expect(Math.abs(w.blockIntervalMs - slotMs)).toBeLessThanOrEqual(3)
    },
  )
})

describe('readFeeWindow: blob fields (EIP-4844)', { timeout: 30_000 }, () => {
  // the recorded blocks with blob base fees and fullness of their own (a made-up but valid blob market)
  const blobChain = {
    ...chain,
    blocks: chain.blocks.map((b, i) => ({ ...b, blobBaseFee: 1_000_000n + BigInt(i) * 1_000n, blobGasUsedRatio: (i % 7) / 6 })),
    nextBlobBaseFee: 1_200_000n,
  }
  async function blobNode(shape: FakeShape = {}) {
    const s = await startFakeRpc({ chainId: 1, ...blobChain, ...shape })
    servers.push(s)
    return s
  }

  test('default: the blob base fees, the next one and the blob fullness are kept from the same eth_feeHistory (no other call)', async () => {
    const s = await blobNode()
    const w = await read([s.url])
    expect(s.calls.filter((c) => c === 'eth_feeHistory')).toHaveLength(1)
    expect(w.nextBaseFeePerBlobGas).toBe('1200000')
    expect(w.baseFeePerBlobGas).toHaveLength(500)
    expect(w.blobGasUsedRatio).toHaveLength(500)
    // the recorded blocks are the newest 100 of the window; the fake's older blocks report 1 wei and 0
    expect(w.baseFeePerBlobGas?.slice(400)).toEqual(blobChain.blocks.map((b) => String(b.blobBaseFee)))
    expect(w.blobGasUsedRatio?.slice(400)).toEqual(blobChain.blocks.map((b) => b.blobGasUsedRatio))
    expect(w.baseFeePerBlobGas?.[0]).toBe('1')
  })

  test('behavior: a node without blob fields gives a window without them (none of the three)', async () => {
    const w = await read([(await fake()).url])
    expect(w).not.toHaveProperty('baseFeePerBlobGas')
    expect(w).not.toHaveProperty('nextBaseFeePerBlobGas')
    expect(w).not.toHaveProperty('blobGasUsedRatio')
  })

  test('behavior: paged history (a provider capping eth_feeHistory at 100) carries the blob fields of every page, as one read does', async () => {
    const whole = await read([(await blobNode()).url])
    const capped = await blobNode({ feeHistoryCap: 100 })
    const w = await read([capped.url])
    expect(capped.requests()).toBe(2)
    expect(w.baseFeePerBlobGas).toEqual(whole.baseFeePerBlobGas)
    expect(w.blobGasUsedRatio).toEqual(whole.blobGasUsedRatio)
    expect(w.nextBaseFeePerBlobGas).toBe(whole.nextBaseFeePerBlobGas)
  })

  test('behavior: older pages without blob fields drop them all: never a window whose blob fields cover part of it', async () => {
    const s = await blobNode({ feeHistoryCap: 100, blobFieldsOnlyAtHead: true })
    const w = await read([s.url])
    expect(w.baseFeePerGas).toHaveLength(500)
    expect(w).not.toHaveProperty('baseFeePerBlobGas')
    expect(w).not.toHaveProperty('nextBaseFeePerBlobGas')
    expect(w).not.toHaveProperty('blobGasUsedRatio')
  })

  const history = { oldestBlock: '0x1', baseFeePerGas: ['0x1', '0x1', '0x1'], gasUsedRatio: [0.5, 0.5] }
  test.each([
    ['absent', {}],
    ['null', { baseFeePerBlobGas: null, blobGasUsedRatio: null }],
    ['empty', { baseFeePerBlobGas: [], blobGasUsedRatio: [] }],
  ])('behavior: blob fields %s are no blob fields, not a malformed answer', (_, blob) => {
    const fh = RpcFeeHistorySchema.parse({ ...history, ...blob })
    expect(fh.baseFeePerBlobGas).toBeUndefined()
    expect(fh.blobGasUsedRatio).toBeUndefined()
  })

  test.each([
    [
      'a blob base fee short (no next one)',
      { baseFeePerBlobGas: ['0x1', '0x1'], blobGasUsedRatio: [0, 0] },
      /baseFeePerBlobGas must have one entry more/,
    ],
    [
      'a blob fullness short',
      { baseFeePerBlobGas: ['0x1', '0x1', '0x1'], blobGasUsedRatio: [0] },
      /blobGasUsedRatio must have one entry per block/,
    ],
    [
      'a blob base fee wider than 128 bits',
      { baseFeePerBlobGas: ['0x1', '0x1', `0x1${'0'.repeat(32)}`], blobGasUsedRatio: [0, 0] },
      /128 bits/,
    ],
    ['a negative blob fullness', { baseFeePerBlobGas: ['0x1', '0x1', '0x1'], blobGasUsedRatio: [0, -1] }, /blobGasUsedRatio/],
  ])('error: %s is a malformed answer', (_, blob, message) => {
    const result = RpcFeeHistorySchema.safeParse({ ...history, ...blob })
    expect(result.success).toBe(false)
    expect(JSON.stringify(result.error?.issues)).toMatch(message)
  })
})

describe('readFeeWindow: the L1 fee parameters of an L2', { timeout: 30_000 }, () => {
  const base = { l1BaseFee: 400_000_000n, blobBaseFee: 1n, baseFeeScalar: 2269, blobBaseFeeScalar: 1_055_762 }

  test.each([
    ['jovian', { isthmus: true, jovian: true, operatorFeeScalar: 3, operatorFeeConstant: '1000' }],
    ['isthmus', { isthmus: true, jovian: false, operatorFeeScalar: 3, operatorFeeConstant: '1000' }],
    ['fjord', { isthmus: false, jovian: false, operatorFeeScalar: 0, operatorFeeConstant: '0' }],
  ] as const)(
    // (the fake node has no Multicall3: a cold read asks Multicall3 pinned to the window's head, then the getters
    // one each at that head; with Multicall3 one aggregate3 does: l1-fee-at-head.test.ts)
    "default: an OP-stack chain at %s without Multicall3: the predeploys' getters, pinned to the window's head after the window's batch",
    async (fork, operator) => {
      const s = await fake('ok', { opStackPredeploys: { fork, ...base, operatorFeeScalar: 3, operatorFeeConstant: 1000n } })
      const w = await read([s.url], { l1FeeRule: 'op-stack' })
      expect(w.l1Fee).toEqual({
        rule: 'op-stack',
        l1BaseFee: '400000000',
        blobBaseFee: '1',
        baseFeeScalar: 2269,
        blobBaseFeeScalar: 1_055_762,
        ...operator,
      })
      expect(s.requests()).toBe(3)
      expect(w.headGasLimit).toBe('30000000')
    },
  )

  test('behavior: a fork once seen is not asked again: the next read of a Jovian chain asks the six getters whose values move (after the aggregate3 the node cannot answer)', async () => {
    const s = await fake('ok', { opStackPredeploys: { fork: 'jovian', ...base, operatorFeeScalar: 3, operatorFeeConstant: 1000n } })
    const first = await read([s.url], { l1FeeRule: 'op-stack' })
    const calls = s.calls.filter((m) => m === 'eth_call').length
    const second = await read([s.url], { l1FeeRule: 'op-stack', previous: first })
    expect(calls).toBe(1 + 9)
    expect(s.calls.filter((m) => m === 'eth_call').length - calls).toBe(1 + 6)
    expect(second.l1Fee).toEqual(first.l1Fee)
  })

  test('behavior: a chain before Fjord (no isFjord getter) or with no predeploys: unavailable, and the window is still served', async () => {
    const ecotone = await fake('ok', { opStackPredeploys: { fork: 'ecotone', ...base } })
    expect((await read([ecotone.url], { l1FeeRule: 'op-stack' })).l1Fee).toMatchObject({ rule: 'unavailable' })
    const none = await fake()
    const w = await read([none.url], { l1FeeRule: 'op-stack' })
    expect(w.l1Fee).toMatchObject({ rule: 'unavailable' })
    expect(w.baseFeePerGas).toHaveLength(500)
  })

  test("behavior: Arbitrum: ArbGasInfo.getPricesInWei()'s price per L1 calldata byte", async () => {
    const prices = [224_000_000n, 1_600_000n, 2_000_000_000_000n, 20_000_000n, 0n, 20_000_000n]
    const s = await fake('ok', { arbGasInfoPrices: prices })
    expect((await read([s.url], { l1FeeRule: 'arbitrum' })).l1Fee).toEqual({ rule: 'arbitrum', perL1CalldataByte: '1600000' })
  })

  test('behavior: a chain with no L1 fee asks no predeploy', async () => {
    const s = await fake()
    const w = await read([s.url])
    expect(w.l1Fee).toBeUndefined()
    expect(s.calls).not.toContain('eth_call')
  })
})
