import { randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { test as base, expect, type Page, type TestInfo } from '@playwright/test'
import type { BlockPricesResponse } from '@web3-onboard/gas'
import { answerAgeBlocks } from '@/lib/core/contract/freshness'
import { startDevnet, type Devnet } from '@/scripts/devnet/devnet'
import { rpc } from '@/scripts/devnet/json-rpc'
import { startService, type Service } from '@/scripts/devnet/service'
import { startTlsForwarder, type TlsForwarder } from '../support/tls-forwarder'
import type { ClientError, Outcome } from './blocknative/dapp'
import { bundleDapp, startDappServer, type DappServer } from './blocknative/dapp-server'

// Blocknative's own client, @web3-onboard/gas, in Chromium, from a dapp page on another origin. The
// client hard-codes https://api.blocknative.com: Chromium resolves that host to a local TLS forwarder
// in front of `next start`, so every request (and its CORS preflight: the client's rxjs ajax sends
// X-Requested-With, and the key as a raw Authorization header) goes through the browser's own network
// stack. Request interception (page.route) is not used: it would answer the preflights itself.

const BLOCKNATIVE = 'api.blocknative.com'
const KEY = 'bn-e2e-public-key-0001'
const SHOTS = 'test-results/screenshots'

const test = base.extend<{ browserConsole: string[] }, { blocknative: TlsForwarder }>({
  // what Chromium logs (a CORS refusal names its reason there only): in the failure message and attached on failure
  browserConsole: async ({ page }, provide, testInfo) => {
    const lines: string[] = []
    page.on('console', (m) => lines.push(m.text()))
    await provide(lines)
    if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('browser console', { body: lines.join('\n') })
  },
  blocknative: [
    async ({}, provide) => {
      const forwarder = await startTlsForwarder(BLOCKNATIVE)
      await provide(forwarder)
      await forwarder.close()
    },
    { scope: 'worker' },
  ],
  launchOptions: [
    async ({ launchOptions, blocknative }, provide) =>
      provide({
        ...launchOptions,
        args: [...(launchOptions.args ?? []), `--host-resolver-rules=MAP ${BLOCKNATIVE} 127.0.0.1:${blocknative.port}`],
      }),
    { scope: 'worker' },
  ],
})
// the forwarder's certificate is self-signed, made at test time
test.use({ ignoreHTTPSErrors: true })

let chain: Devnet
/** The devnet's URL as the service gets it, unique per run (see beforeAll). */
let rpcUrl: string
let dapp: DappServer
let stranger: DappServer

test.beforeAll(async () => {
  test.setTimeout(180_000)
  const bundle = await bundleDapp()
  ;[dapp, stranger] = await Promise.all([startDappServer(bundle), startDappServer(bundle)])
  // the client accepts only Ethereum (0x1) and Polygon (0x89): the service serves chain 1 from anvil
  chain = await startDevnet({ chainId: 1, blockTimeSec: 1, seedBlocks: 200 })
  // Next's Data Cache on disk outlives `next start` and keys a chain's window by its RPC URLs: a port an earlier
  // run's chain-1 devnet had would hand this run that chain's window (anvil ignores the query)
  rpcUrl = `${chain.url}/?devnet=${randomUUID()}`
})
test.afterAll(async () => {
  await chain?.stop()
  await dapp?.close()
  await stranger?.close()
})

/** The node's head (eth_blockNumber), read apart from the service. */
const nodeHead = async () => Number(await rpc<string>(chain.url, 'eth_blockNumber'))

/**
 * The node's base fee (gwei) of block `n`, from its header once the node has it. Not from eth_feeHistory: for a
 * block before the head anvil appends its CURRENT pending base fee as the next one, not that block's successor's.
 */
async function nodeBaseFee(n: number): Promise<number> {
  const read = () => rpc<{ baseFeePerGas: string } | null>(chain.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])
  await expect.poll(read, { message: `the node mines block ${n}`, timeout: 15_000 }).not.toBeNull()
  return Number(BigInt((await read())!.baseFeePerGas)) / 1e9
}

/** A gwei amount as the client reads it: a finite JSON number with at most 9 decimals. */
function expectGwei(value: unknown, what: string) {
  expect(typeof value, what).toBe('number')
  expect(Number.isFinite(value), what).toBe(true)
  expect(Number((value as number).toFixed(9)), `${what} has at most 9 decimals`).toBe(value)
}

/** What a Blocknative client relies on in one chain's answer. */
function expectBlockPrices(answer: BlockPricesResponse) {
  expect(answer).toMatchObject({ system: 'ethereum', network: 'main', unit: 'gwei' })
  expectGwei(answer.maxPrice, 'maxPrice')
  expect(Number.isInteger(answer.currentBlockNumber)).toBe(true)
  expect(answer.msSinceLastBlock).toBeGreaterThanOrEqual(0)
  expect(answer.blockPrices).toHaveLength(1)
  const [next] = answer.blockPrices
  expect(next!.blockNumber).toBe(answer.currentBlockNumber + 1)
  expect(Number.isInteger(next!.estimatedTransactionCount) && next!.estimatedTransactionCount >= 0).toBe(true)
  expectGwei(next!.baseFeePerGas, 'baseFeePerGas')
  // Ethereum has blobs
  expectGwei((next as { blobBaseFeePerGas?: number }).blobBaseFeePerGas, 'blobBaseFeePerGas')
  const prices = next!.estimatedPrices
  expect(prices.map((p) => p.confidence)).toEqual([99, 95, 90, 80, 70])
  const base = next!.baseFeePerGas
  for (const p of prices) {
    for (const k of ['price', 'maxPriorityFeePerGas', 'maxFeePerGas'] as const) expectGwei(p[k], `${p.confidence}% ${k}`)
    expect(p.maxPriorityFeePerGas!).toBeGreaterThanOrEqual(0)
    expect(p.price!, `${p.confidence}%: a legacy price pays the base fee`).toBeGreaterThanOrEqual(base)
    // one full block's rise (12.5% on Ethereum) over the base fee, plus the tip; 2 wei of rounding
    expect(p.maxFeePerGas!, `${p.confidence}%: maxFeePerGas`).toBeGreaterThanOrEqual(base * 1.125 + p.maxPriorityFeePerGas! - 2e-9)
  }
  // a higher confidence never asks less
  for (let i = 1; i < prices.length; i++) {
    expect(prices[i - 1]!.maxPriorityFeePerGas!).toBeGreaterThanOrEqual(prices[i]!.maxPriorityFeePerGas!)
    expect(prices[i - 1]!.maxFeePerGas!).toBeGreaterThanOrEqual(prices[i]!.maxFeePerGas!)
  }
}

async function openDapp(page: Page, at: DappServer) {
  await page.goto(at.origin)
  await page.waitForFunction(() => typeof window.dapp === 'object')
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  mkdirSync(SHOTS, { recursive: true })
  const path = `${SHOTS}/blocknative-${name}.png`
  await page.screenshot({ path, fullPage: true })
  await testInfo.attach(name, { path, contentType: 'image/png' })
}

/** get(): one answer, for the node's next block. */
async function checkGet(page: Page, apiKey: string | undefined, browserConsole: string[]) {
  const before = await nodeHead()
  const got = await page.evaluate((key) => window.dapp.get(key), apiKey)
  const after = await nodeHead()
  if (!got.ok) throw new Error(`get() failed: ${JSON.stringify(got.error)}\nbrowser console:\n${browserConsole.join('\n')}`)
  expect(got.value).toHaveLength(1)
  const answer = got.value[0]!
  expectBlockPrices(answer)
  // the service answers from its cached head, current for as many blocks as an answer may be old (answerAgeBlocks)
  expect(answer.currentBlockNumber).toBeGreaterThanOrEqual(before - answerAgeBlocks(1_000))
  expect(answer.currentBlockNumber).toBeLessThanOrEqual(after)
  // the next block's base fee, as the node mines it
  const head = answer.currentBlockNumber
  const nodeSays = `the node's base fees of blocks ${head}, ${head + 1}: ${await nodeBaseFee(head)}, ${await nodeBaseFee(head + 1)} gwei; heads ${before}..${after}`
  expect(answer.blockPrices[0]!.baseFeePerGas, nodeSays).toBe(await nodeBaseFee(head + 1))
  return answer
}

type StreamState = { error: ClientError | null; blocks: number[]; emissions: BlockPricesResponse[][] }
const streamState = (page: Page): Promise<StreamState> =>
  page.evaluate(() => ({
    error: window.dapp.stream.error,
    emissions: window.dapp.stream.emissions,
    blocks: window.dapp.stream.emissions.map((e) => e[0]?.blockPrices[0]?.blockNumber ?? NaN),
  }))

/** stream({ poll: 1000 }): emits again and again, following the chain, never going back. */
async function checkStream(page: Page, apiKey: string | undefined, browserConsole: string[]) {
  await page.evaluate((key) => window.dapp.startStream(1000, key), apiKey)
  // at least two emissions, and a new block among them (anvil mines one a second)
  await expect
    .poll(
      async () => {
        const s = await streamState(page)
        return s.error !== null || (s.blocks.length >= 2 && s.blocks.at(-1)! > s.blocks[0]!)
      },
      { timeout: 30_000 },
    )
    .toBe(true)
  await page.evaluate(() => window.dapp.stopStream())
  const s = await streamState(page)
  expect(s.error, `stream() failed; browser console:\n${browserConsole.join('\n')}`).toBeNull()
  for (const e of s.emissions) {
    expect(e).toHaveLength(1)
    expectBlockPrices(e[0]!)
  }
  for (let i = 1; i < s.blocks.length; i++) expect(s.blocks[i]).toBeGreaterThanOrEqual(s.blocks[i - 1]!)
  return s.blocks
}

/** Starts `next start` for one run with `env`, and points the forwarder at it; returns the service's URL (once started). */
function serveRun(name: string, env: () => Record<string, string>): { url(): string } {
  let service: Service
  test.beforeAll(async ({ blocknative }, testInfo) => {
    test.setTimeout(60_000)
    service = await startService({
      env: { USE_PUBLIC_RPCS: 'false', RPC_URL_1: rpcUrl, API_KEYS: '', ...env() },
      logFile: testInfo.outputPath(`${name}-service.log`),
    })
    blocknative.forwardTo(service.port)
  })
  test.afterAll(async () => service?.stop())
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('service output', { body: service.output() })
  })
  return { url: () => service.url }
}

/** The block number the chain page shows. */
const shownBlock = async (page: Page) => Number(await page.getByTestId('block-number').textContent())

test.describe('keyless: PUBLIC_ACCESS=true, CORS_ORIGINS=*', () => {
  const keyless = serveRun('keyless', () => ({ PUBLIC_ACCESS: 'true', CORS_ORIGINS: '*' }))

  test('a visitor sees the live chain page with no login', async ({ page }, testInfo) => {
    const refused: string[] = []
    page.on('response', (r) => {
      if (r.status() === 401) refused.push(r.url())
    })
    // no credentials in this context: the page and its own API calls go keyless
    await page.goto(`${keyless.url()}/networks/1`)
    await expect(page.getByTestId('block-number')).toBeVisible()
    const first = await shownBlock(page)
    await expect.poll(() => shownBlock(page), { timeout: 20_000 }).toBeGreaterThan(first)
    await expect(page.getByTestId('medium-max-fee')).toHaveAttribute('data-value', /^\d+(\.\d+)?$/)
    expect(refused).toEqual([])
    await shoot(page, testInfo, 'keyless-chain-page')
  })

  test('get() from another origin resolves to the next block with five confidence levels', async ({ page, browserConsole }, testInfo) => {
    await openDapp(page, dapp)
    const answer = await checkGet(page, undefined, browserConsole)
    console.log(`keyless get(): head ${answer.currentBlockNumber}, blockPrices[0]: ${JSON.stringify(answer.blockPrices[0])}`)
    await shoot(page, testInfo, 'keyless-get')
  })

  test('stream({ poll: 1000 }) emits the chain block after block', async ({ page, browserConsole }, testInfo) => {
    await openDapp(page, dapp)
    console.log(`keyless stream(): blocks ${(await checkStream(page, undefined, browserConsole)).join(', ')}`)
    await shoot(page, testInfo, 'keyless-stream')
  })
})

test.describe('keyed: PUBLIC_API_KEYS, CORS_ORIGINS=<the dapp origin>', () => {
  const keyed = serveRun('keyed', () => ({ PUBLIC_API_KEYS: KEY, CORS_ORIGINS: dapp.origin }))

  test('without PUBLIC_ACCESS the chain page still asks for a login', async ({ page }) => {
    // Chromium, offered no credentials, ends the navigation at the Basic challenge
    await expect(page.goto(`${keyed.url()}/networks/1`)).rejects.toThrow(/ERR_INVALID_AUTH_CREDENTIALS/)
    const res = await fetch(`${keyed.url()}/networks/1`)
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /)
  })

  test('get() with the key as raw Authorization (a preflighted request) resolves', async ({ page, browserConsole }, testInfo) => {
    await openDapp(page, dapp)
    const answer = await checkGet(page, KEY, browserConsole)
    console.log(`keyed get(): head ${answer.currentBlockNumber}, blockPrices[0]: ${JSON.stringify(answer.blockPrices[0])}`)
    await shoot(page, testInfo, 'keyed-get')
  })

  test('stream({ poll: 1000 }) with the key emits the chain block after block', async ({ page, browserConsole }, testInfo) => {
    await openDapp(page, dapp)
    console.log(`keyed stream(): blocks ${(await checkStream(page, KEY, browserConsole)).join(', ')}`)
    await shoot(page, testInfo, 'keyed-stream')
  })

  test('without the key: a 401 the page can read (CORS headers are on errors too)', async ({ page }, testInfo) => {
    await openDapp(page, dapp)
    const got: Outcome<BlockPricesResponse[]> = await page.evaluate(() => window.dapp.get())
    expect(got.ok).toBe(false)
    if (got.ok) return
    expect(got.error.status).toBe(401)
    expect(got.error.response).toMatchObject({ statusCode: 401 })
    console.log(`keyed, no key: ${JSON.stringify(got.error)}`)
    await shoot(page, testInfo, 'keyed-no-key')
  })

  test('from an origin not listed: the browser refuses the answer, get() and stream() fail', async ({ page, browserConsole }, testInfo) => {
    await openDapp(page, stranger)
    const got: Outcome<BlockPricesResponse[]> = await page.evaluate((key) => window.dapp.get(key), KEY)
    expect(got.ok).toBe(false)
    if (got.ok) return
    // a refused cross-origin answer is a network error to the page: status 0, nothing readable
    expect(got.error).toMatchObject({ name: 'AjaxError', status: 0 })
    await page.evaluate((key) => window.dapp.startStream(1000, key), KEY)
    await expect.poll(async () => (await streamState(page)).error?.status, { timeout: 15_000 }).toBe(0)
    await page.evaluate(() => window.dapp.stopStream())
    expect((await streamState(page)).emissions).toEqual([])
    await expect
      .poll(() => browserConsole.filter((t) => t.includes(`from origin '${stranger.origin}' has been blocked by CORS policy`)).length)
      .toBeGreaterThanOrEqual(2)
    console.log(
      `keyed, origin ${stranger.origin} not listed: ${JSON.stringify(got.error)}; Chromium: ${browserConsole.find((t) => t.includes('CORS'))}`,
    )
    await shoot(page, testInfo, 'keyed-refused-origin')
  })
})
