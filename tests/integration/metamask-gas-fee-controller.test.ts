// MetaMask's own GasFeeController (@metamask/gas-fee-controller), configured as a wallet configures
// it, pointed at the service: `fee-market` estimates from suggestedGasFees on the EIP-1559 devnet,
// `legacy` estimates from gasPrices on the berlin anvil. The controller falls back to the node's
// eth_gasPrice (gasEstimateType 'eth_gasPrice') whenever our endpoint fails or answers something it
// cannot read, so the estimate type says which source it used.
import { GasFeeController, type GasFeeMessenger, type GasFeeState } from '@metamask/gas-fee-controller'
import { Messenger } from '@metamask/messenger'
import type { NetworkState, ProviderProxy } from '@metamask/network-controller'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { GasPricesSchema, SuggestedGasFeesSchema } from '@/lib/core/contract/schemas'
import { rpc } from '@/scripts/devnet/json-rpc'
import { api, basic, ctx, eventually } from './helpers'
import { seedLegacyBlocks } from './legacy-chain'

type Hex = `0x${string}`
const CLIENT_ID = 'gas-api-integration-test'
const realFetch = globalThis.fetch
/** The URLs the controller asked (with the Authorization the wrapper added, never one of its own). */
const asked: { url: string; controllerAuth: string | null }[] = []

beforeAll(() => {
  // The controller sends no credentials (MetaMask's own API needs none), and fetch refuses URLs with
  // user:pass@ in them. So, for this test only, a wrapper adds HTTP Basic to requests for the service,
  // as a proxy in front of a wallet would; everything else of the request is the controller's own.
  const origin = new URL(ctx().api).origin
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const headers = new Headers(init?.headers)
    // the controller's requests carry its X-Client-Id; the test's own reads (api()) carry credentials
    if (!url.startsWith(origin) || headers.get('x-client-id') !== CLIENT_ID) return realFetch(input, init)
    asked.push({ url, controllerAuth: headers.get('authorization') })
    headers.set('authorization', basic(ctx().credentials.plain))
    return realFetch(input, { ...init, headers })
  }
})
afterAll(() => {
  globalThis.fetch = realFetch
})

/** An EIP-1193 provider with the legacy sendAsync eth-query uses, on the chain's node (the controller's fallback). */
function providerFor(nodeUrl: string): ProviderProxy {
  const send = async (payload: { id?: number; method: string; params?: unknown[] }) => ({
    id: payload.id ?? 1,
    jsonrpc: '2.0',
    result: await rpc(nodeUrl, payload.method, payload.params ?? []),
  })
  return {
    request: async ({ method, params }: { method: string; params?: unknown[] }) => rpc(nodeUrl, method, params ?? []),
    sendAsync: (payload: { id?: number; method: string; params?: unknown[] }, cb: (err: unknown, res?: unknown) => void) => {
      send(payload).then((res) => cb(null, res), cb)
    },
  } as unknown as ProviderProxy
}

/** The controller as the extension constructs it: its messenger, the network's callbacks and both API endpoints. */
function controllerFor(chainId: number, nodeUrl: string, eip1559: boolean): GasFeeController {
  const messenger = new Messenger({ namespace: 'GasFeeController' }) as unknown as GasFeeMessenger
  return new GasFeeController({
    messenger,
    interval: 10_000,
    getProvider: () => providerFor(nodeUrl),
    getChainId: () => `0x${chainId.toString(16)}` as Hex,
    onNetworkDidChange: (_listener: (state: NetworkState) => void) => {},
    getCurrentNetworkEIP1559Compatibility: async () => eip1559,
    getCurrentNetworkLegacyGasAPICompatibility: () => true,
    getCurrentAccountEIP1559Compatibility: () => true,
    EIP1559APIEndpoint: `${ctx().api}/networks/<chain_id>/suggestedGasFees`,
    legacyAPIEndpoint: `${ctx().api}/networks/<chain_id>/gasPrices`,
    clientId: CLIENT_ID,
  })
}

/**
 * Runs the controller's fetch between two direct reads of `endpoint` and returns its state once both
 * direct reads are for the same block (then the controller's read was for it too).
 */
async function sameBlock(controller: GasFeeController, chainId: number, endpoint: string) {
  return eventually(async () => {
    const before = await api(`/networks/${chainId}/${endpoint}`)
    const state: GasFeeState = await controller.fetchGasFeeEstimates()
    const after = await api(`/networks/${chainId}/${endpoint}`)
    expect(before.status).toBe(200)
    return before.headers.get('x-block-number') === after.headers.get('x-block-number') ? { state, body: before.body } : undefined
  }, `the controller's read and ours for the same block of chain ${chainId}`)
}

describe('MetaMask GasFeeController pointed at the service', () => {
  test('default: fee-market estimates from suggestedGasFees on an EIP-1559 chain', async () => {
    const c = ctx()
    const controller = controllerFor(c.chains.live, c.nodeUrl, true)
    try {
      const { state, body } = await sameBlock(controller, c.chains.live, 'suggestedGasFees')
      expect(state.gasEstimateType).toBe('fee-market')
      const ours = SuggestedGasFeesSchema.parse(body)
      expect(state.gasFeeEstimates).toEqual(ours)
      expect(asked.at(-1)?.url).toBe(`${c.api}/networks/${c.chains.live}/suggestedGasFees`)
    } finally {
      controller.destroy()
    }
  })

  test('default: legacy estimates from gasPrices on a pre-London chain', async () => {
    const c = ctx()
    // blocks with legacy transactions to price from (the suite's berlin anvil starts empty)
    await seedLegacyBlocks(c.legacyNodeUrl, 30)
    const controller = controllerFor(c.chains.legacy, c.legacyNodeUrl, false)
    try {
      const { state, body } = await sameBlock(controller, c.chains.legacy, 'gasPrices')
      expect(state.gasEstimateType).toBe('legacy')
      const ours = GasPricesSchema.parse(body)
      expect(state.gasFeeEstimates).toEqual({ low: ours.SafeGasPrice, medium: ours.ProposeGasPrice, high: ours.FastGasPrice })
      expect(asked.at(-1)?.url).toBe(`${c.api}/networks/${c.chains.legacy}/gasPrices`)
    } finally {
      controller.destroy()
    }
  })

  test('behavior: the controller itself sent no credentials (the test wrapper added them)', () => {
    expect(asked.map((a) => new URL(a.url).pathname)).toEqual(
      expect.arrayContaining([`/networks/${ctx().chains.live}/suggestedGasFees`, `/networks/${ctx().chains.legacy}/gasPrices`]),
    )
    expect(asked.every((a) => a.controllerAuth === null)).toBe(true)
  })
})
