// GET /networks/{chainId}/replacementFees against a real pool: anvil with mining off holds a pending
// transaction, the service (`next start`, real HTTP and auth) prices its replacement, and the replacement
// is sent to anvil with viem's wallet client from anvil's funded dev accounts.
import { createWalletClient, defineChain, formatGwei, http, type Hex, type LocalAccount } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ReplacementFeesSchema, SuggestedGasFeesSchema, GasPricesSchema } from '@/lib/core/contract/schemas'
import { parseGwei } from '@/lib/core/units'
import { startAnvil, type AnvilNode } from '@/scripts/devnet/anvil'
import { rpc, rpcBatch } from '@/scripts/devnet/json-rpc'
import { startService, type Service } from '@/scripts/devnet/service'
import { assertContract } from '../support/contract'
import { api, basic, ctx, eventually } from './helpers'
import { seedLegacyBlocks } from './legacy-chain'

const CHAIN = 31360
const CRED: [string, string] = ['replace', 'replace-secret-of-the-test']
/** anvil's default dev mnemonic: its first accounts are funded. */
const MNEMONIC = 'test test test test test test test test test test test junk'
const SEED_BLOCKS = 30
const GWEI = 1_000_000_000n

let node: AnvilNode
let service: Service
const chain = defineChain({
  id: CHAIN,
  name: 'replacement devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
})
const account = (index: number) => mnemonicToAccount(MNEMONIC, { addressIndex: index })
const wallet = (signer: LocalAccount) => createWalletClient({ account: signer, chain, transport: http(node.url) })
const hex = (n: bigint) => `0x${n.toString(16)}`

beforeAll(async () => {
  // 30 blocks of history 2 s apart up to now, three transfers each tipping 0.1–0.3 gwei; then no mining:
  // what is sent stays pending
  const genesis = Math.floor(Date.now() / 1000) - 2 * (SEED_BLOCKS + 1)
  node = await startAnvil({ chainId: CHAIN, timestamp: genesis })
  const accounts = await rpc<string[]>(node.url, 'eth_accounts')
  for (let i = 1; i <= SEED_BLOCKS; i++) {
    await rpcBatch(
      node.url,
      [0, 1, 2].map((k) => ({
        method: 'eth_sendTransaction',
        params: [
          {
            from: accounts[k],
            to: accounts[k + 3],
            value: '0x1',
            gas: '0x5208',
            maxPriorityFeePerGas: hex(BigInt(k + 1) * 100_000_000n),
            maxFeePerGas: hex(10n * GWEI),
          },
        ],
      })),
    )
    await rpc(node.url, 'evm_mine', [{ timestamp: genesis + 2 * i, blocks: 1 }])
  }
  service = await startService({
    env: {
      API_KEYS: CRED.join(':'),
      USE_PUBLIC_RPCS: 'false',
      REQUEST_LOG: 'false',
      // the head stays put while the test holds transactions pending
      MAX_HEAD_AGE_SECONDS: '0',
      [`RPC_URL_${CHAIN}`]: node.url,
      // OP Mainnet's id on the same node: a blob fee is refused before any read (the node's chain id is never asked)
      RPC_URL_10: node.url,
    },
  })
})
afterAll(async () => {
  await service?.stop()
  await node?.stop()
})

/** GET a path of the service, checked against GET /openapi.json. */
async function get(path: string) {
  const res = await fetch(`${service.url}${path}`, { headers: { authorization: basic(CRED) } })
  const body = (await res.json()) as unknown
  assertContract({ method: 'GET', path, status: res.status, headers: res.headers, body })
  return { status: res.status, block: res.headers.get('x-block-number'), body }
}

const nextBaseFee = async () =>
  BigInt((await rpc<{ baseFeePerGas: string[] }>(node.url, 'eth_feeHistory', ['0x1', 'latest', []])).baseFeePerGas.at(-1)!)
const nonceOf = async (signer: LocalAccount) => Number(await rpc<string>(node.url, 'eth_getTransactionCount', [signer.address, 'pending']))
const pooled = async (hash: Hex) =>
  (await rpc<{ blockNumber: string | null } | null>(node.url, 'eth_getTransactionByHash', [hash])) !== null

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint }

/**
 * Sends a transfer of `value` wei to oneself (0: a cancel) with the given nonce and fees; the pool's
 * refusal is returned, not thrown. The pending originals send 1 wei, so a replacement at the same fees
 * is another transaction, not the same one again.
 */
async function send(signer: LocalAccount, nonce: number, fees: Fees, value = 0n): Promise<{ hash: Hex } | { error: string }> {
  try {
    const hash = await wallet(signer).sendTransaction({ to: signer.address, value, gas: 21_000n, nonce, ...fees })
    return { hash }
  } catch (err) {
    return { error: String(err) }
  }
}

const accepted = (r: { hash: Hex } | { error: string }): Hex => {
  if ('error' in r) throw new Error(`refused: ${r.error}`)
  return r.hash
}

const query = (fees: Record<string, bigint>) =>
  Object.entries(fees)
    .map(([k, v]) => `${k}=${formatGwei(v)}`)
    .join('&')

describe('replacementFees on anvil', () => {
  test('default: a speed-up at minimum replaces the pending transaction; each level is the larger of minimum and the level', async () => {
    const signer = account(50)
    const nonce = await nonceOf(signer)
    const base = await nextBaseFee()
    // a tip under what the devnet's traffic pays (0.1–0.3 gwei): the levels' tips are above the minimum's
    const original = { maxFeePerGas: 2n * base + 10_000_000n, maxPriorityFeePerGas: 10_000_000n }
    const first = accepted(await send(signer, nonce, original, 1n))

    const res = await get(`/networks/${CHAIN}/replacementFees?${query(original)}`)
    expect(res.status).toBe(200)
    const answer = ReplacementFeesSchema.parse(res.body) as Record<
      'minimum' | 'low' | 'medium' | 'high',
      { maxFeePerGas: string; maxPriorityFeePerGas: string }
    >
    const ceil110 = (x: bigint) => (x * 110n + 99n) / 100n
    expect(answer.minimum).toEqual({
      maxFeePerGas: formatGwei(ceil110(original.maxFeePerGas)),
      maxPriorityFeePerGas: formatGwei(ceil110(original.maxPriorityFeePerGas)),
    })
    const fees = await get(`/networks/${CHAIN}/suggestedGasFees`)
    expect(fees.block).toBe(res.block)
    const suggested = SuggestedGasFeesSchema.parse(fees.body)
    const max = (a: string, b: string) => formatGwei(parseGwei(a) > parseGwei(b) ? parseGwei(a) : parseGwei(b))
    for (const level of ['low', 'medium', 'high'] as const) {
      const maxFee = max(answer.minimum.maxFeePerGas, suggested[level].suggestedMaxFeePerGas)
      const tip = max(answer.minimum.maxPriorityFeePerGas, suggested[level].suggestedMaxPriorityFeePerGas)
      expect(answer[level]).toEqual({ maxFeePerGas: maxFee, maxPriorityFeePerGas: parseGwei(tip) > parseGwei(maxFee) ? maxFee : tip })
    }

    const replacement = accepted(
      await send(signer, nonce, {
        maxFeePerGas: parseGwei(answer.minimum.maxFeePerGas),
        maxPriorityFeePerGas: parseGwei(answer.minimum.maxPriorityFeePerGas),
      }),
    )
    expect(await pooled(replacement)).toBe(true)
    expect(await pooled(first)).toBe(false)
    console.log(`GET /networks/${CHAIN}/replacementFees?${query(original)} (block ${res.block}): ${JSON.stringify(res.body)}`)
    console.log(
      `EIP-1559 speed-up on anvil: pending ${formatGwei(original.maxFeePerGas)} / ${formatGwei(original.maxPriorityFeePerGas)} gwei; minimum ${answer.minimum.maxFeePerGas} / ${answer.minimum.maxPriorityFeePerGas} accepted (${replacement}); medium ${answer.medium.maxFeePerGas} / ${answer.medium.maxPriorityFeePerGas} (block ${res.block})`,
    )
  })

  test("behavior: anvil's own rule is any higher max fee: 1 wei under minimum is accepted there (geth, reth, erigon refuse it)", async () => {
    const signer = account(51)
    const nonce = await nonceOf(signer)
    const original = { maxFeePerGas: 2n * (await nextBaseFee()) + 100_000_000n, maxPriorityFeePerGas: 100_000_000n }
    accepted(await send(signer, nonce, original, 1n))
    const { body } = await get(`/networks/${CHAIN}/replacementFees?${query(original)}`)
    const minimum = ReplacementFeesSchema.parse(body).minimum as { maxFeePerGas: string; maxPriorityFeePerGas: string }
    const under = accepted(
      await send(signer, nonce, {
        maxFeePerGas: parseGwei(minimum.maxFeePerGas) - 1n,
        maxPriorityFeePerGas: original.maxPriorityFeePerGas,
      }),
    )
    expect(await pooled(under)).toBe(true)
    console.log(
      `anvil took 1 wei under minimum: pending ${formatGwei(original.maxFeePerGas)} gwei, minimum ${minimum.maxFeePerGas}, sent ${formatGwei(parseGwei(minimum.maxFeePerGas) - 1n)}`,
    )
  })

  describe('at a 7-wei base fee (Linea’s), where anvil’s rule and the pools’ meet', () => {
    beforeAll(async () => {
      await rpc(node.url, 'anvil_setNextBlockBaseFeePerGas', [hex(7n)])
    })

    test('behavior: 1 wei under minimum’s max fee is refused as underpriced; minimum (a cancel) is accepted and mined', async () => {
      const signer = account(52)
      const nonce = await nonceOf(signer)
      const original = { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }
      const first = accepted(await send(signer, nonce, original, 1n))
      const res = await get(`/networks/${CHAIN}/replacementFees?${query(original)}`)
      expect(res.status).toBe(200)
      const minimum = ReplacementFeesSchema.parse(res.body).minimum
      // 10 wei × 1.1 = 11 wei; the tip: 1 wei × 1.1 = 1.1, rounded up to 2 wei
      expect(minimum).toEqual({ maxFeePerGas: '0.000000011', maxPriorityFeePerGas: '0.000000002' })

      const under = await send(signer, nonce, { maxFeePerGas: 10n, maxPriorityFeePerGas: 2n })
      expect('error' in under && under.error).toMatch(/replacement transaction underpriced/)
      console.log(
        `1 wei under minimum (10 wei / 2 wei) refused by anvil: ${'error' in under ? (/Details: (.*)/.exec(under.error)?.[1] ?? under.error) : ''}`,
      )
      expect(await pooled(first)).toBe(true)

      const cancel = accepted(await send(signer, nonce, { maxFeePerGas: 11n, maxPriorityFeePerGas: 2n }))
      await rpc(node.url, 'evm_mine')
      const receipt = await rpc<{ status: string } | null>(node.url, 'eth_getTransactionReceipt', [cancel])
      expect(receipt?.status).toBe('0x1')
      expect(await rpc(node.url, 'eth_getTransactionReceipt', [first])).toBeNull()
      console.log(`minimum (11 wei / 2 wei) accepted and mined: ${cancel}`)
    })

    test('args: legacy gasPrice: 1 wei under minimum refused, minimum accepted', async () => {
      const signer = account(53)
      const nonce = await nonceOf(signer)
      accepted(await send(signer, nonce, { gasPrice: 10n }, 1n))
      const res = await get(`/networks/${CHAIN}/replacementFees?gasPrice=0.00000001`)
      const answer = ReplacementFeesSchema.parse(res.body) as Record<'minimum' | 'medium', { gasPrice: string }>
      expect(answer.minimum).toEqual({ gasPrice: '0.000000011' })
      const gasPrices = GasPricesSchema.parse((await get(`/networks/${CHAIN}/gasPrices`)).body)
      expect(answer.medium).toEqual({ gasPrice: largerGasPrice(answer.minimum, gasPrices.ProposeGasPrice) })
      const under = await send(signer, nonce, { gasPrice: 10n })
      expect('error' in under && under.error).toMatch(/replacement transaction underpriced/)
      expect(await pooled(accepted(await send(signer, nonce, { gasPrice: 11n })))).toBe(true)
    })
  })

  test('args: a blob transaction: all three fees doubled, the blob fee the minimum at every level', async () => {
    const res = await get(`/networks/${CHAIN}/replacementFees?maxFeePerGas=3&maxPriorityFeePerGas=0&maxFeePerBlobGas=0.000000005`)
    expect(res.status).toBe(200)
    const answer = ReplacementFeesSchema.parse(res.body) as Record<string, Record<string, string>>
    expect(answer.minimum).toEqual({ maxFeePerGas: '6', maxPriorityFeePerGas: '0.000000001', maxFeePerBlobGas: '0.00000001' })
    for (const level of ['low', 'medium', 'high']) expect(answer[level]!.maxFeePerBlobGas).toBe('0.00000001')
  })

  test('error: a blob fee on a chain without blob transactions (OP Mainnet) is a 400 naming maxFeePerBlobGas', async () => {
    const res = await get('/networks/10/replacementFees?maxFeePerGas=3&maxPriorityFeePerGas=1&maxFeePerBlobGas=1')
    expect(res.status).toBe(400)
    expect((res.body as { message: string }).message).toMatch(/^Query parameter 'maxFeePerBlobGas' is not allowed: chain 10 takes no blob/)
  })

  test.each([
    ['maxFeePerGas=1', 'maxPriorityFeePerGas'],
    ['gasPrice=1&maxFeePerGas=1', 'maxFeePerGas'],
    ['gasPrice=1e9', 'gasPrice'],
    ['gasPrice=-1', 'gasPrice'],
    ['maxFeePerGas=1&maxPriorityFeePerGas=2', 'maxPriorityFeePerGas'],
    ['maxFeePerGas=1&maxPriorityFeePerGas=1&tip=1', 'tip'],
  ])('error: %s is a 400 naming %s', async (q, parameter) => {
    const res = await get(`/networks/${CHAIN}/replacementFees?${q}`)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' })
    expect((res.body as { message: string }).message).toMatch(new RegExp(`^Query parameter '${parameter}'`))
  })
})

describe('replacementFees on a chain without EIP-1559 (the suite’s berlin anvil, through the suite’s service)', () => {
  test('default: a gasPrice query is priced by the legacy gas prices', async () => {
    const c = ctx()
    await seedLegacyBlocks(c.legacyNodeUrl, 5)
    const head = String(Number(await rpc<string>(c.legacyNodeUrl, 'eth_blockNumber')))
    const prices = await eventually(async () => {
      const r = await api(`/networks/${c.chains.legacy}/gasPrices`)
      return r.status === 200 && r.headers.get('x-block-number') === head ? GasPricesSchema.parse(r.body) : undefined
    }, `gasPrices for block ${head}`)
    const res = await api(`/networks/${c.chains.legacy}/replacementFees?gasPrice=1`)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-block-number')).toBe(head)
    expect(res.body).toEqual({
      minimum: { gasPrice: '1.1' },
      low: { gasPrice: largerGasPrice({ gasPrice: '1.1' }, prices.SafeGasPrice) },
      medium: { gasPrice: largerGasPrice({ gasPrice: '1.1' }, prices.ProposeGasPrice) },
      high: { gasPrice: largerGasPrice({ gasPrice: '1.1' }, prices.FastGasPrice) },
    })
  })

  test('error: EIP-1559 fees there are a 400 (no EIP-1559 fee market)', async () => {
    const res = await api(`/networks/${ctx().chains.legacy}/replacementFees?maxFeePerGas=2&maxPriorityFeePerGas=1`)
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/does not use EIP-1559/)
  })
})

function largerGasPrice(minimum: { gasPrice: string }, level: string): string {
  const a = parseGwei(minimum.gasPrice)
  const b = parseGwei(level)
  return formatGwei(a > b ? a : b)
}
