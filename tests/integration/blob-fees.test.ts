// GET /networks/{chainId}/blobFees end to end: `next start` against a real anvil that takes real blob
// transactions (viem's walletClient with KZG from kzg-wasm), a fake OP-stack node (blob fields of 1 wei,
// but a chain without blobs), and the shared suite's devnets (an unknown chain with blobs, a legacy one).
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createWalletClient, formatGwei, http, parseGwei, stringToHex, toBlobs, type Kzg } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { mainnet } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startAnvil, type AnvilNode } from '@/scripts/devnet/anvil'
import { rpc } from '@/scripts/devnet/json-rpc'
import { startService, type Service } from '@/scripts/devnet/service'
import { openSse, type SseStream } from '@/scripts/stream/sse-client'
import { blobForkAt, blobScheduleOf, type BlobSchedule } from '@/lib/core/chain-rules/blob-schedule'
import { BlobFeesSchema, ErrorBodySchema, type BlobFeesBody } from '@/lib/core/contract/schemas'
import { assertContract, streamEventViolations } from '../support/contract'
import { startFakeRpc, type FakeRpc } from '../support/fake-rpc'
import { loadTestKzg } from '../support/kzg'
import { api, basic, ctx, eventually } from './helpers'

const CRED: [string, string] = ['blob', 'blob-secret-of-the-blob-test']
// anvil's default mnemonic: its funded dev accounts
const MNEMONIC = 'test test test test test test test test test test test junk'
const senders = [0, 1, 2].map((addressIndex) => mnemonicToAccount(MNEMONIC, { addressIndex }))
/**
 * The blob chain runs as mainnet (chain 1) in mainnet's Osaka era (EIP-7607: 1764798551 … BPO1 at
 * 1765290071), anvil --hardfork osaka: then anvil's blob parameters are Osaka's everywhere (its fee
 * manager derives them from the chain and the genesis timestamp, its block checks from the hardfork;
 * on chain 31337 the two disagree and blobs never move the fee), and the service's mainnet schedule
 * picks Osaka by the head's timestamp. The genesis carries an excess blob gas of 50,000,000, so the
 * blob base fee starts at 21,689 wei instead of 1.
 */
const OSAKA_GENESIS_TIMESTAMP = 1_764_806_656
const GENESIS_EXCESS_BLOB_GAS = 50_000_000
const BLOB_CHAIN = 1
const NO_BLOB_CHAIN = 10

let anvil: AnvilNode
let opNode: FakeRpc
let service: Service
let kzg: Kzg
const streams: SseStream[] = []

/** A GET of the blob test's service (plain credentials), checked against GET /openapi.json. */
async function get(chainId: number, endpoint: string) {
  const path = `/networks/${chainId}/${endpoint}`
  const res = await fetch(`${service.url}${path}`, { headers: { authorization: basic(CRED) } })
  const body = (await res.json()) as unknown
  assertContract({ method: 'GET', path, status: res.status, headers: res.headers, body })
  return { status: res.status, block: Number(res.headers.get('x-block-number')), body }
}

/** blobFees of the blob chain once the service answers for `block` (it reads on its own clock). */
const blobFeesAt = (block: number) =>
  eventually(async () => {
    const res = await get(BLOB_CHAIN, 'blobFees')
    return res.status === 200 && res.block === block ? BlobFeesSchema.parse(res.body) : undefined
  }, `blobFees for block ${block}`)

/** The node's own word on the blob base fee of the block after `block` (its head): eth_blobBaseFee and eth_feeHistory. */
async function nodeNextBlobBaseFee(block: number) {
  const head = Number(await rpc<string>(anvil.url, 'eth_blockNumber'))
  expect(head).toBe(block)
  const history = await rpc<{ baseFeePerBlobGas: string[]; blobGasUsedRatio: number[] }>(anvil.url, 'eth_feeHistory', [
    '0x1',
    `0x${block.toString(16)}`,
    [],
  ])
  return {
    blobBaseFee: BigInt(await rpc<string>(anvil.url, 'eth_blobBaseFee')),
    feeHistoryNext: BigInt(history.baseFeePerBlobGas.at(-1) ?? -1),
    headRatio: history.blobGasUsedRatio.at(-1),
  }
}

const blob = toBlobs({ data: stringToHex('gas-api blob fee test ') })[0]!

/**
 * One full block of blobs (Osaka's max, 9: three senders of 3 blobs each), each transaction with the
 * service's high-level maxFeePerBlobGas, then mined: the block's number and the transactions' hashes.
 */
async function mineFullBlobBlock(maxFeePerBlobGas: bigint): Promise<{ block: number; hashes: `0x${string}`[]; balancesBefore: bigint[] }> {
  const hashes: `0x${string}`[] = []
  const balancesBefore = await Promise.all(
    senders.map(async (a) => BigInt(await rpc<string>(anvil.url, 'eth_getBalance', [a.address, 'latest']))),
  )
  for (const account of senders) {
    // anvil checks every blob's KZG proof: on a loaded machine a send outlasts viem's 10 s, and a resend is "underpriced"
    const wallet = createWalletClient({ account, chain: mainnet, transport: http(anvil.url, { timeout: 60_000, retryCount: 0 }) })
    hashes.push(
      await wallet.sendTransaction({
        blobs: [blob, blob, blob],
        kzg,
        maxFeePerBlobGas,
        to: '0x000000000000000000000000000000000000dEaD',
      }),
    )
  }
  await rpc(anvil.url, 'evm_mine')
  return { block: Number(await rpc<string>(anvil.url, 'eth_blockNumber')), hashes, balancesBefore }
}

type Receipt = { status: string; blockNumber: string; gasUsed: string; effectiveGasPrice: string; blobGasUsed: string }

/**
 * What each sender of a mined round paid for blob gas, wei per blob gas: its balance before less after,
 * less the execution gas (the transactions move no value). The receipts' blobGasPrice is not used:
 * anvil 1.7.1 writes it with Cancun's update fraction (3,194,333 wei where the block charged 21,689).
 */
async function chargedPerBlobGas(sent: Awaited<ReturnType<typeof mineFullBlobBlock>>) {
  return Promise.all(
    sent.hashes.map(async (hash, i) => {
      const receipt = await rpc<Receipt>(anvil.url, 'eth_getTransactionReceipt', [hash])
      expect(receipt.status).toBe('0x1')
      expect(Number(receipt.blockNumber)).toBe(sent.block)
      const after = BigInt(await rpc<string>(anvil.url, 'eth_getBalance', [senders[i]!.address, 'latest']))
      const blobPaid = sent.balancesBefore[i]! - after - BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice)
      expect(BigInt(receipt.blobGasUsed)).toBe(3n * 131_072n)
      expect(blobPaid % BigInt(receipt.blobGasUsed)).toBe(0n)
      return blobPaid / BigInt(receipt.blobGasUsed)
    }),
  )
}

const levels = (b: BlobFeesBody) => [b.low, b.medium, b.high].map((l) => parseGwei(l.suggestedMaxFeePerBlobGas))

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gas-api-blob-'))
  const genesis = join(dir, 'genesis.json')
  writeFileSync(
    genesis,
    JSON.stringify({
      config: { chainId: BLOB_CHAIN },
      nonce: '0x0',
      timestamp: `0x${OSAKA_GENESIS_TIMESTAMP.toString(16)}`,
      extraData: '0x',
      gasLimit: '0x1c9c380',
      difficulty: '0x0',
      mixHash: `0x${'0'.repeat(64)}`,
      coinbase: `0x${'0'.repeat(40)}`,
      alloc: {},
      number: '0x0',
      baseFeePerGas: '0x3b9aca00',
      excessBlobGas: `0x${GENESIS_EXCESS_BLOB_GAS.toString(16)}`,
      blobGasUsed: '0x0',
    }),
  )
  anvil = await startAnvil({ chainId: BLOB_CHAIN, hardfork: 'osaka', init: genesis, accounts: 10 })
  // a few blocks of history before the blob blocks
  for (let i = 0; i < 3; i++) await rpc(anvil.url, 'evm_mine')

  // an OP-stack node whose eth_feeHistory reports blob fields of 1 wei, as op-geth's may: still no blobs
  const now = Math.floor(Date.now() / 1000)
  const blocks = Array.from({ length: 80 }, (_, i) => ({
    number: 5_000_000 + i,
    timestamp: now - 160 + 2 * i,
    baseFee: 1_000_000n + BigInt(i),
    gasUsedRatio: 0.5,
    tips: [1_000_000n],
    blobBaseFee: 1n,
  }))
  opNode = await startFakeRpc({ chainId: NO_BLOB_CHAIN, blocks, nextBaseFee: 1_000_080n, nextBlobBaseFee: 1n })

  ;[service, kzg] = await Promise.all([
    startService({
      env: {
        API_KEYS: CRED.join(':'),
        RATE_LIMITS: `${CRED[0]}=0`,
        USE_PUBLIC_RPCS: 'false',
        REQUEST_LOG: 'false',
        // the blob chain's blocks carry 2025 timestamps
        MAX_HEAD_AGE_SECONDS: '0',
        [`RPC_URL_${BLOB_CHAIN}`]: anvil.url,
        [`RPC_URL_${NO_BLOB_CHAIN}`]: opNode.url,
      },
    }),
    loadTestKzg(),
  ])
}, 180_000)

afterAll(async () => {
  for (const s of streams) s.close()
  await service?.stop()
  await opNode?.close()
  await anvil?.stop()
})

describe('GET /networks/{chainId}/blobFees on a chain with blobs (anvil, real blob transactions)', () => {
  test("default: after each full blob block, estimatedBlobBaseFee is the node's next blob base fee for that block; levels at or above it, low ≤ medium ≤ high, and they held", async () => {
    const start = Number(await rpc<string>(anvil.url, 'eth_blockNumber'))
    const first = await blobFeesAt(start)
    const schedule = blobScheduleOf(BLOB_CHAIN) as BlobSchedule
    expect(blobForkAt(schedule, OSAKA_GENESIS_TIMESTAMP)?.name).toBe('Osaka')
    expect([first.blobTarget, first.blobMax]).toEqual([6, 9])
    expect(first.estimatedBlobBaseFee).toBe(formatGwei((await nodeNextBlobBaseFee(start)).blobBaseFee))

    const rounds: { block: number; body: BlobFeesBody; node: Awaited<ReturnType<typeof nodeNextBlobBaseFee>> }[] = []
    let body = first
    for (let round = 0; round < 4; round++) {
      const sent = await mineFullBlobBlock(parseGwei(body.high.suggestedMaxFeePerBlobGas))
      // every blob transaction got into that block, sent with the service's cap, and was charged the
      // blob base fee the service had said for that block
      for (const charged of await chargedPerBlobGas(sent)) expect(charged).toBe(parseGwei(body.estimatedBlobBaseFee))
      body = await blobFeesAt(sent.block)
      rounds.push({ block: sent.block, body, node: await nodeNextBlobBaseFee(sent.block) })
    }

    for (const { body: b, node } of rounds) {
      const next = parseGwei(b.estimatedBlobBaseFee)
      expect(next).toBe(node.blobBaseFee)
      expect(next).toBe(node.feeHistoryNext)
      // the forecast's first horizon is the next block's blob base fee, exactly; its quantiles ordered up to the bound
      expect(b.forecast.horizons[0]!.p50).toBe(b.estimatedBlobBaseFee)
      for (const h of b.forecast.horizons) {
        const [p50, p90, p99, bound] = [h.p50, h.p90, h.p99, h.bound].map((g) => parseGwei(g))
        expect(p50! <= p90! && p90! <= p99! && p99! <= bound!).toBe(true)
      }
      // the block was full: 9 of Osaka's 9 blobs
      expect(b.blobGasUsedRatio.at(-1)).toBe(node.headRatio)
      expect(node.headRatio).toBe(1)
      const [low, medium, high] = levels(b)
      expect(low! >= next).toBe(true)
      expect(low! <= medium! && medium! <= high!).toBe(true)
    }
    // full blocks under EIP-7918's reserve price (1 gwei execution base fee): the fee rises every block
    const fees = [first, ...rounds.map((r) => r.body)].map((b) => parseGwei(b.estimatedBlobBaseFee))
    for (let i = 1; i < fees.length; i++) expect(fees[i]! > fees[i - 1]!).toBe(true)
    // the worst case happened (every block full): the first answer's caps still covered every later block
    for (const fee of fees.slice(1)) for (const cap of levels(first)) expect(fee <= cap).toBe(true)

    console.log(
      'blob fees next to the node (wei):\n' +
        rounds
          .map(
            ({ block, body: b, node }) =>
              `  block ${block}: service next ${parseGwei(b.estimatedBlobBaseFee)}, node eth_blobBaseFee ${node.blobBaseFee}, eth_feeHistory next ${node.feeHistoryNext}; low/medium/high ${levels(b).join(' / ')}`,
          )
          .join('\n'),
    )
    // four full blob blocks of three sends each, whose KZG proofs anvil checks: slow on a busy machine (docs/benchmarks.md)
  }, 180_000)

  test("behavior: with 70 blocks of blob history (over the 64 it needs) the caps are sized by the forecast: at least one full block's rise, and a blob transaction sent with medium's cap gets in at the next blob base fee", async () => {
    const head = Number(await rpc<string>(anvil.url, 'eth_blockNumber'))
    await rpc(anvil.url, 'anvil_mine', ['0x46'])
    const b = await blobFeesAt(head + 70)
    expect(b.forecast.method).toBe('window')
    const next = parseGwei(b.estimatedBlobBaseFee)
    expect(next).toBe((await nodeNextBlobBaseFee(head + 70)).blobBaseFee)
    // the forecast's bound at +2 is the next block full: no cap sits under that one block's rise
    const oneFullBlock = parseGwei(b.forecast.horizons[1]!.bound)
    expect(oneFullBlock > next).toBe(true)
    const [low, medium, high] = levels(b)
    expect(low! >= oneFullBlock && low! <= medium! && medium! <= high!).toBe(true)
    expect(high! < parseGwei(b.forecast.horizons[9]!.bound)).toBe(true)
    console.log(
      `sized blob caps at block ${head + 70} (wei): next ${next}, +2 bound ${oneFullBlock}, low/medium/high ${levels(b).join(' / ')}`,
    )
    const sent = await mineFullBlobBlock(medium!)
    expect(sent.block).toBe(head + 71)
    for (const charged of await chargedPerBlobGas(sent)) expect(charged).toBe(next)
  })

  test("behavior: the stream's fees event carries blobFees, last, equal to GET blobFees for its block", async () => {
    const path = `/networks/${BLOB_CHAIN}/stream`
    const s = await openSse(`${service.url}${path}`, { authorization: basic(CRED) })
    streams.push(s)
    expect(s.status).toBe(200)
    for (let i = 0; i < 2; i++) {
      const { block } =
        i === 0 ? { block: Number(await rpc<string>(anvil.url, 'eth_blockNumber')) } : await mineFullBlobBlock(parseGwei('1'))
      const event = await s.next((e) => e.event === 'fees' && Number(e.id) === block, 30_000)
      const data = JSON.parse(event.data) as Record<string, unknown>
      expect(streamEventViolations('fees', data)).toEqual([])
      expect(Object.keys(data).at(-1)).toBe('blobFees')
      const rest = await blobFeesAt(block)
      expect(data.blobFees).toEqual(rest)
    }
  })
})

describe('GET /networks/{chainId}/blobFees where there are no blobs', () => {
  test('error: an OP-stack chain (its node reports 1-wei blob fields) answers 400 saying it carries no blobs; its other endpoints and stream go on, without blobFees', async () => {
    const res = await get(NO_BLOB_CHAIN, 'blobFees')
    expect(res.status).toBe(400)
    expect(ErrorBodySchema.parse(res.body).message).toBe(
      `Chain ${NO_BLOB_CHAIN} carries no blobs (EIP-4844 blob transactions), so no blob fees exist for it.`,
    )
    expect((await get(NO_BLOB_CHAIN, 'suggestedGasFees')).status).toBe(200)
    const s = await openSse(`${service.url}/networks/${NO_BLOB_CHAIN}/stream`, { authorization: basic(CRED) })
    streams.push(s)
    const event = await s.next((e) => e.event === 'fees', 30_000)
    expect(JSON.parse(event.data)).not.toHaveProperty('blobFees')
  })

  test('error: a chain without EIP-1559 (anvil --hardfork berlin) answers 400: no blobs either', async () => {
    const res = await api(`/networks/${ctx().chains.legacy}/blobFees`)
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/carries no blobs/)
  })
})

describe('GET /networks/{chainId}/blobFees on a chain the tables do not name', () => {
  test("behavior: the suite's devnet (anvil, chain 31337) reports blob fields: blob fees by anvil's schedule (6/9), the next one the node's", async () => {
    const res = await eventually(async () => {
      const r = await api(`/networks/${ctx().chains.live}/blobFees`)
      return r.status === 200 ? r : undefined
    }, 'blobFees of the devnet')
    const body = BlobFeesSchema.parse(res.body)
    const block = Number(res.headers.get('x-block-number'))
    expect(body.blockNumber).toBe(block)
    expect([body.blobTarget, body.blobMax]).toEqual([6, 9])
    // the blob base fee block+1 charged, from the node (it mines a block a second)
    const charged = await eventually(
      async () => {
        const h = await rpc<{ baseFeePerBlobGas: string[] } | null>(ctx().nodeUrl, 'eth_feeHistory', [
          '0x1',
          `0x${(block + 1).toString(16)}`,
          [],
        ]).catch(() => null)
        return h?.baseFeePerBlobGas[0]
      },
      `block ${block + 1}`,
    )
    expect(parseGwei(body.estimatedBlobBaseFee)).toBe(BigInt(charged))
    expect(body.blobGasUsedRatio.length).toBeGreaterThan(0)
  })
})
