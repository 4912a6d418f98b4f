// Flashblocks end to end: `next start` against a fake OP-stack node that builds each 2-s block in 200-ms pieces on
// the wall clock (scripts/devnet/flashblocks-node.ts), and one whose `pending` block is its latest.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type Service } from '@/scripts/devnet/service'
import { startFlashblocksNode, type FlashblocksNode } from '@/scripts/devnet/flashblocks-node'
import { openSse, type SseStream } from '@/scripts/stream/sse-client'
import { AccuracyReportSchema, SuggestedGasFeesSchema, TransactionCostSchema, FeesEventSchema } from '@/lib/core/contract/schemas'
import { parseGwei } from '@/lib/core/units'
import { basic, eventually } from './helpers'

const CRED: [string, string] = ['flash', 'flash-secret-of-the-test']
// Unichain (found from the node, as Base is): Base would refuse the whole-block transaction below (EIP-7825 since Azul)
const PIECED = 130
const PLAIN = 10
/** op-geth's DefaultMinSuggestedPriorityFee: the OP-stack floor (lib/core/chain-rules/chain-policy.ts). */
const FLOOR = 1_000_000n

let service: Service
let pieced: FlashblocksNode
let plain: FlashblocksNode

async function get(chainId: number, endpoint: string) {
  const res = await fetch(`${service.url}/networks/${chainId}/${endpoint}`, { headers: { authorization: basic(CRED) } })
  expect(res.status).toBe(200)
  return { headers: res.headers, body: (await res.json()) as unknown }
}
const fees = async (chainId = PIECED) => {
  const { headers, body } = await get(chainId, 'suggestedGasFees')
  return { ...SuggestedGasFeesSchema.parse(body), headers }
}
const tipsOf = (f: Awaited<ReturnType<typeof fees>>) => [f.low, f.medium, f.high].map((l) => parseGwei(l.suggestedMaxPriorityFeePerGas))
/** The first answer that follows the pending pieces. */
const piecedAnswer = () =>
  eventually(async () => ((f) => (f.pending ? f : undefined))(await fees()), 'an answer from the pending pieces', 60_000)

beforeAll(async () => {
  pieced = await startFlashblocksNode({ chainId: PIECED })
  plain = await startFlashblocksNode({ chainId: PLAIN, pending: 'latest' })
  service = await startService({
    env: {
      API_KEYS: CRED.join(':'),
      RATE_LIMITS: `${CRED[0]}=0`,
      USE_PUBLIC_RPCS: 'false',
      REQUEST_LOG: 'false',
      [`RPC_URL_${PIECED}`]: pieced.url,
      [`RPC_URL_${PLAIN}`]: plain.url,
    },
  })
}, 120_000)

afterAll(async () => {
  await service?.stop()
  await pieced?.close()
  await plain?.close()
})

describe('flashblocks', () => {
  test('behavior: found from the node: the cadence measured, waits in pieces (high one or two), the gas limit counted', async () => {
    const f = await piecedAnswer()
    const interval = Number(f.headers.get('x-block-interval-ms'))
    const p = f.pending!
    // measured from the node: the probe's reads lag on a busy machine, so within a piece of the node's
    expect(Math.abs(p.pieces - pieced.piecesPerBlock)).toBeLessThanOrEqual(1)
    expect(p.cadenceMs).toBe(interval / p.pieces)
    expect(p.blockNumber).toBeGreaterThanOrEqual(Number(f.headers.get('x-block-number')))
    // waits are whole pieces in whole milliseconds (a busy probe may count 9 pieces: 222.2 ms each)
    expect([f.high.minWaitTimeEstimate, f.high.maxWaitTimeEstimate]).toEqual([Math.round(p.cadenceMs), Math.round(2 * p.cadenceMs)])
    expect(f.low.maxWaitTimeEstimate).toBe(Math.round(6 * p.cadenceMs))
    // a transfer waits for the next piece; a limit of the whole block cannot fit before the next block's last piece
    const cost = async (gas: number) => TransactionCostSchema.parse((await get(PIECED, `transactionCost?gas=${gas}`)).body)
    expect((await cost(21_000)).high.minWaitTimeEstimate).toBe(Math.round(p.cadenceMs))
    const whole = await cost(Number(BigInt(pieced.gasPerPiece) * BigInt(p.pieces)))
    expect(whole.high.minWaitTimeEstimate).toBeGreaterThanOrEqual(Math.round(p.pieces * p.cadenceMs))
  })

  test('behavior: a node whose pending block is its latest is answered in blocks, as before', async () => {
    await piecedAnswer()
    const f = await fees(PLAIN)
    expect(f.pending).toBeUndefined()
    expect(f.high.minWaitTimeEstimate).toBe(Number(f.headers.get('x-block-interval-ms')))
  })

  test('behavior: a burst that fills the pieces raises every tip above the newest piece’s margin before its block seals; room again brings them back down', async () => {
    await piecedAnswer()
    const startedIn = pieced.building().number
    pieced.burst(true)
    const risen = await eventually(
      async () => ((f) => (f.pending?.full ? f : undefined))(await fees()),
      'an answer from full pieces',
      30_000,
    )
    // every burst transaction tips at least 0.05 gwei: each level beats the lowest the block took
    const block = [...pieced.sealed(), pieced.building()].find((b) => b.number === risen.pending!.blockNumber)!
    const burstTips = block.pieces.flatMap((x) => x.txs.filter((t) => t.gas === 1_000_000).map((t) => t.tip))
    const lowest = burstTips.reduce((m, t) => (t < m ? t : m))
    for (const tip of tipsOf(risen)) expect(tip).toBeGreaterThan(lowest)
    // a piece or two in (a block more on a busy machine), while the block is built
    expect(risen.pending!.blockNumber).toBeLessThanOrEqual(startedIn + 2)
    const ladder = await get(PIECED, 'suggestedGasFees').then(() =>
      fetch(`${service.url}/gasprices/blockprices?chainid=${PIECED}`, { headers: { authorization: basic(CRED) } }).then((r) => r.json()),
    )
    const prices = (ladder as { blockPrices: { estimatedPrices: { confidence: number; maxPriorityFeePerGas: number }[] }[] })
      .blockPrices[0]!
    expect(prices.estimatedPrices.find((e) => e.confidence === 99)!.maxPriorityFeePerGas * 1e9).toBeGreaterThan(Number(FLOOR))

    // the burst goes on until a block it filled is sealed and in the window the answers come from
    await eventually(
      async () => ((f) => (Number(f.headers.get('x-block-number')) >= risen.pending!.blockNumber ? f : undefined))(await fees()),
      'a sealed window that holds the burst',
      30_000,
    )
    pieced.burst(false)
    // low and medium at the floor; high, which promises two pieces though a burst may begin at the next, beats what
    // the full pieces took last (their lowest tips: the transfers filling the gaps), not the burst's tips
    const transfers = pieced.sealed().flatMap((b) => b.pieces.flatMap((x) => x.txs.filter((t) => t.gas === 21_000).map((t) => t.tip)))
    const topTransfer = transfers.reduce((m, t) => (t > m ? t : m))
    const calm = await eventually(
      async () =>
        ((f) => {
          const [low, medium, high] = tipsOf(f)
          return f.pending && !f.pending.full && low === FLOOR && medium === FLOOR && high! <= topTransfer ? f : undefined
        })(await fees()),
      'an answer back down: low and medium at the floor, high below every burst transaction',
      30_000,
    )
    // the full pieces took transfers at 0.001–0.005 gwei last: high stays above the floor
    expect(tipsOf(calm)[2]).toBeGreaterThan(FLOOR)
    // the sealed blocks the answer was made from still hold the burst's transactions: it did not wait for them to forget it
    const recent = pieced.sealed().filter((b) => b.number <= Number(calm.headers.get('x-block-number')))
    expect(recent.slice(-20).some((b) => b.pieces.some((x) => x.txs.some((t) => t.gas === 1_000_000)))).toBe(true)
  })

  test('behavior: the stream pushes at most one event per piece, with the block and piece, and agrees with the polled answer', async () => {
    await piecedAnswer()
    const stream: SseStream = await openSse(`${service.url}/networks/${PIECED}/stream`, { authorization: basic(CRED) })
    try {
      expect(stream.status).toBe(200)
      const parsed = () => stream.events.filter((e) => e.event === 'fees').map((e) => FeesEventSchema.parse(JSON.parse(e.data)))
      await eventually(async () => (parsed().length >= 8 ? true : undefined), 'eight fees events', 30_000)
      const keys = parsed().map((e) => `${e.blockNumber}:${e.pending?.blockNumber}.${e.pending?.piece}:${e.stale}`)
      expect(new Set(keys).size).toBe(keys.length)
      for (const e of parsed()) expect(e.pending).toBeDefined()
      await eventually(
        async () => {
          const polled = await fees()
          const same = parsed().find(
            (e) => e.pending?.blockNumber === polled.pending?.blockNumber && e.pending?.piece === polled.pending?.piece,
          )
          if (!same) return undefined
          const { headers: _, ...body } = polled
          return JSON.stringify(same.suggestedGasFees) === JSON.stringify(body) ? true : undefined
        },
        'a polled answer equal to the event of its piece',
        30_000,
      )
    } finally {
      stream.close()
    }
  })

  test('behavior: one pending read per piece however many clients poll; sealed reads about one per block', async () => {
    await piecedAnswer()
    const before = pieced.calls()
    const t0 = Date.now()
    let polls = 0
    const pollers = Array.from({ length: 20 }, async () => {
      while (Date.now() - t0 < 4_000) {
        await fees()
        polls++
      }
    })
    await Promise.all(pollers)
    const elapsed = Date.now() - t0
    const after = pieced.calls()
    const pieces = elapsed / 200
    expect(polls).toBeGreaterThan(20)
    // once per piece on the grid, a second look half a piece later when a piece came late
    expect(after.pending - before.pending).toBeLessThanOrEqual(2 * pieces + 2)
    expect(after.feeHistory - before.feeHistory).toBeLessThanOrEqual(elapsed / 2_000 + 3)
  })

  test('behavior: /accuracy judges per piece on a flashblocks chain, at the cadence and promises the answers carry', async () => {
    const f = await piecedAnswer()
    const report = async (chainId = PIECED) => AccuracyReportSchema.parse((await get(chainId, 'accuracy')).body)
    const first = await eventually(async () => ((r) => (r.pieces?.judgedPieces ? r : undefined))(await report()), 'judged pieces', 30_000)
    const p = first.pieces!
    expect(p.cadenceMs).toBe(f.pending!.cadenceMs)
    expect(p.piecesPerBlock).toBe(f.pending!.pieces)
    // each level's promise in pieces is its answer's maxWaitTimeEstimate over the cadence (whole pieces, the wait being
    // rounded to the millisecond)
    for (const level of ['low', 'medium', 'high'] as const) {
      expect(p.levels[level].promisedPieces).toBe(Math.round(f[level].maxWaitTimeEstimate / f.pending!.cadenceMs))
      expect(p.levels[level].trials).toBeGreaterThan(0)
    }
    // judged piece by piece: a report a block later has judged later pieces than the first
    const later = await eventually(
      async () =>
        ((r) => (r.pieces?.judgedPieces && r.pieces.judgedPieces.to.blockNumber > p.judgedPieces!.to.blockNumber ? r : undefined))(
          await report(),
        ),
      'a later judged piece',
      30_000,
    )
    expect(later.pieces!.levels.high.trials).toBeGreaterThanOrEqual(1)
    // a chain whose pending block is its latest has no pieces to judge
    expect((await report(PLAIN)).pieces).toBeUndefined()
  })
})
