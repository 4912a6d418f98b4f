// docs/clients.md's snippets, run as they are (scripts/clients/*.ts, which the docs quote verbatim: a
// unit test holds the two together) against the service (`next start`) on the live anvil devnet: viem's
// and ethers' fees are the service's medium level for the same block, and a transaction each sends with
// them is mined.
import { JsonRpcProvider, Wallet } from 'ethers'
import { createPublicClient, createWalletClient, formatGwei, http, parseEther, parseGwei, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { anvil } from 'viem/chains'
import { afterAll, describe, expect, test } from 'vitest'
import { FeesEventSchema, SuggestedGasFeesSchema } from '@/lib/core/contract/schemas'
import { rpc } from '@/scripts/devnet/json-rpc'
import { gasApiNetwork } from '@/scripts/clients/ethers-fees'
import { proxyGasStream } from '@/scripts/clients/stream-proxy'
import { withGasApiFees } from '@/scripts/clients/viem-fees'
import { api, ctx } from './helpers'

const gasApi = () => ({ url: ctx().api, apiKey: ctx().credentials.plain[0], apiSecret: ctx().credentials.plain[1] })
const chainId = () => ctx().chains.live
const devnet = () => ({ ...anvil, id: chainId(), rpcUrls: { default: { http: [ctx().nodeUrl] } } })

/** The service's medium level and its block (X-Block-Number), in wei. */
async function medium() {
  const res = await api(`/networks/${chainId()}/suggestedGasFees`)
  expect(res.status).toBe(200)
  const body = SuggestedGasFeesSchema.parse(res.body)
  return {
    block: Number(res.headers.get('x-block-number')),
    maxFeePerGas: parseGwei(body.medium.suggestedMaxFeePerGas),
    maxPriorityFeePerGas: parseGwei(body.medium.suggestedMaxPriorityFeePerGas),
    estimatedBaseFee: parseGwei(body.estimatedBaseFee),
  }
}

/**
 * Runs `probe` between two reads of the service until both reads are for the same block (answers
 * never go back a block, so `probe` saw that block's answer too); fails after `timeoutMs`.
 */
async function sameBlock<T>(probe: () => Promise<T>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const before = await medium()
    const value = await probe()
    const after = await medium()
    if (before.block === after.block) return { ours: before, value }
    if (Date.now() > deadline) throw new Error(`no two reads of the service within ${timeoutMs} ms were for the same block`)
  }
}

/**
 * Sends once, between two reads of the service: a send cannot be retried like sameBlock's probe (the
 * node refuses the same signed transaction twice: "transaction already imported"). Returns the
 * service's medium levels before and after, and what `send` returned; the transaction's fees are
 * the level of one of them (the same one when no block came in between).
 */
async function sentBetween<T>(send: () => Promise<T>) {
  const before = await medium()
  const value = await send()
  const after = await medium()
  return { levels: [before, after], value }
}

/** The level among `levels` whose fees the transaction carries; fails the test when none does. */
function levelOf(levels: Awaited<ReturnType<typeof medium>>[], tx: { maxFeePerGas?: bigint | null; maxPriorityFeePerGas?: bigint | null }) {
  const level = levels.find((l) => l.maxFeePerGas === tx.maxFeePerGas && l.maxPriorityFeePerGas === tx.maxPriorityFeePerGas)
  expect(
    level,
    `fees ${tx.maxFeePerGas} / ${tx.maxPriorityFeePerGas} against ${JSON.stringify(levels, (_, v) => (typeof v === 'bigint' ? `${v}` : v))}`,
  ).toBeDefined()
  return level!
}

/** A fresh account with 10 ETH (anvil_setBalance): the devnet's traffic uses every dev account. */
async function fundedKey(): Promise<Hex> {
  const key = generatePrivateKey()
  await rpc(ctx().nodeUrl, 'anvil_setBalance', [privateKeyToAccount(key).address, `0x${parseEther('10').toString(16)}`])
  return key
}

const providers: JsonRpcProvider[] = []
afterAll(() => {
  for (const p of providers) p.destroy()
})

describe('viem: chain.fees.estimateFeesPerGas from the service (scripts/clients/viem-fees.ts)', () => {
  test("default: estimateFeesPerGas() is the service's medium level for the same block", async () => {
    const client = createPublicClient({ chain: withGasApiFees(devnet(), gasApi()), transport: http(ctx().nodeUrl) })
    const { ours, value } = await sameBlock(() => client.estimateFeesPerGas())
    expect(value).toEqual({ maxFeePerGas: ours.maxFeePerGas, maxPriorityFeePerGas: ours.maxPriorityFeePerGas })
    console.log(
      `viem estimateFeesPerGas at block ${ours.block}: ${formatGwei(value.maxFeePerGas)} / ${formatGwei(value.maxPriorityFeePerGas)} gwei; the service's medium: ${formatGwei(ours.maxFeePerGas)} / ${formatGwei(ours.maxPriorityFeePerGas)}`,
    )
  })

  test('behavior: a transaction sent without fees gets the medium level and is mined', async () => {
    const account = privateKeyToAccount(await fundedKey())
    const chain = withGasApiFees(devnet(), gasApi())
    const wallet = createWalletClient({ account, chain, transport: http(ctx().nodeUrl) })
    const client = createPublicClient({ chain, transport: http(ctx().nodeUrl) })
    const { levels, value: hash } = await sentBetween(() => wallet.sendTransaction({ to: account.address, value: 1n }))
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 60_000, pollingInterval: 250 })
    expect(receipt.status).toBe('success')
    const tx = await client.getTransaction({ hash })
    const ours = levelOf(levels, tx)
    console.log(`viem sent ${hash} at the medium level of block ${ours.block}; mined in block ${receipt.blockNumber}`)
  })
})

describe('ethers: FetchUrlFeeDataNetworkPlugin on the service (scripts/clients/ethers-fees.ts)', () => {
  const provider = () => {
    const network = gasApiNetwork(chainId(), gasApi())
    const p = new JsonRpcProvider(ctx().nodeUrl, network, { staticNetwork: network, pollingInterval: 250 })
    providers.push(p)
    return p
  }

  test("default: provider.getFeeData() is the service's medium level for the same block (gasPrice: next base fee + medium tip)", async () => {
    const p = provider()
    const { ours, value } = await sameBlock(() => p.getFeeData())
    expect({ maxFeePerGas: value.maxFeePerGas, maxPriorityFeePerGas: value.maxPriorityFeePerGas }).toEqual({
      maxFeePerGas: ours.maxFeePerGas,
      maxPriorityFeePerGas: ours.maxPriorityFeePerGas,
    })
    // GET gasPrices' ProposeGasPrice for the block: the next base fee plus the medium tip
    expect(value.gasPrice).toBe(ours.estimatedBaseFee + ours.maxPriorityFeePerGas)
    console.log(
      `ethers getFeeData at block ${ours.block}: ${formatGwei(value.maxFeePerGas!)} / ${formatGwei(value.maxPriorityFeePerGas!)} gwei (gasPrice ${formatGwei(value.gasPrice!)}); the service's medium: ${formatGwei(ours.maxFeePerGas)} / ${formatGwei(ours.maxPriorityFeePerGas)}`,
    )
  })

  test('behavior: a Wallet transaction without fees gets the medium level and is mined', async () => {
    const wallet = new Wallet(await fundedKey(), provider())
    const { levels, value: sent } = await sentBetween(() => wallet.sendTransaction({ to: wallet.address, value: 1n }))
    const receipt = await sent.wait(1, 60_000)
    expect(receipt?.status).toBe(1)
    const ours = levelOf(levels, sent)
    console.log(`ethers sent ${sent.hash} at the medium level of block ${ours.block}; mined in block ${receipt?.blockNumber}`)
  })
})

describe('the stream through a same-origin proxy (scripts/clients/stream-proxy.ts)', () => {
  test('default: the proxy adds the credentials and passes the events through', async () => {
    const abort = new AbortController()
    const res = await proxyGasStream(new Request('http://app.invalid/gas-stream', { signal: abort.signal }), chainId(), gasApi())
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
    let text = ''
    const deadline = Date.now() + 30_000
    while (!/event: fees\nid: \d+\ndata: .*\n/.test(text) && Date.now() < deadline) text += (await reader.read()).value ?? ''
    abort.abort()
    const [, data] = /event: fees\nid: \d+\ndata: (.*)\n/.exec(text) ?? []
    expect(FeesEventSchema.parse(JSON.parse(data!)).blockNumber).toBeGreaterThan(0)
  })
})
