import type { Chain } from 'viem'
import * as viemChains from 'viem/chains'
import { getServerEnv, type ServerEnv } from '../env'
import { chainFeePolicy, L1_FEE_NOT_COMPUTED, tabledL1FeeRule, type ChainFeePolicy } from '../core/chain-rules/chain-policy'
import { processSingleton } from '../runtime/process-singleton'
import type { L1FeeRule } from '../core/types'

/** A chain the service answers for. */
export type ChainConfig = {
  id: number
  name: string
  /** Tried in order, with failover. Never sent to clients or logs: provider URLs embed API keys. */
  rpcUrls: string[]
  /** Block interval the chain is designed for, ms, when viem knows it; only a cold-cache hint. */
  nominalBlockTimeMs?: number
  /** The native token gas is paid in (viem's nativeCurrency); absent for a chain viem does not know. */
  nativeCurrency?: { symbol: string; decimals: number }
  /** The chain's fee rules: its row of lib/core/chain-rules/chain-policy.ts with CHAIN_FEE_POLICIES applied (default: the row). */
  feePolicy?: ChainFeePolicy
  /** viem marks the chain a testnet. */
  testnet?: boolean
  /** An OP-stack chain: the OP-stack policy row, or viem defines the GasPriceOracle predeploy (0x420…000F). */
  opStack?: boolean
  /**
   * The L1 fee the chain charges: read from its predeploys (OP-stack GasPriceOracle and L1Block, ArbGasInfo, Scroll's
   * L1GasPriceOracle, Mantle's GasPriceOracle), or for Linea from the head's extraData (priced into the tip).
   */
  l1FeeRule?: L1FeeRule
  /** The chain may charge an L1 fee the service does not compute (unknown to viem, or L1_FEE_NOT_COMPUTED): l1DataFee null. */
  unknownL1Fee?: boolean
}

/** A chain's fee policy: the one configured on it, else its row of the table. */
export function feePolicyOf(chain: Pick<ChainConfig, 'id' | 'feePolicy'>): ChainFeePolicy {
  return chain.feePolicy ?? chainFeePolicy(chain.id)
}

/** Chains that get viem's public RPC by default (unless USE_PUBLIC_RPCS=false). */
export const DEFAULT_PUBLIC_CHAIN_IDS = [1, 10, 56, 137, 8453, 42161, 43114, 59144, 11155111] as const

/** Every chain viem knows, by id (the first definition wins, e.g. 31337 is "Anvil"). */
function knownChains(): Map<number, Chain> {
  return processSingleton('viem-chains', () => {
    const byId = new Map<number, Chain>()
    const preferred = [viemChains.anvil]
    for (const chain of [...preferred, ...Object.values(viemChains)] as Chain[]) {
      if (chain && typeof chain.id === 'number' && !byId.has(chain.id)) byId.set(chain.id, chain)
    }
    return byId
  })
}

/** The supported chains for an environment: RPC_URL_<id> variables, plus the default public set when enabled. */
export function buildChainRegistry(
  env: Pick<ServerEnv, 'USE_PUBLIC_RPCS' | 'rpcUrls'> & Partial<Pick<ServerEnv, 'CHAIN_FEE_POLICIES'>>,
): Map<number, ChainConfig> {
  const overrides = env.CHAIN_FEE_POLICIES ?? {}
  const chains = new Map<number, ChainConfig>()
  const add = (id: number, rpcUrls: string[]) => {
    const known = knownChains().get(id)
    // the table first: a chain with its own rule (Mantle, an OP-stack fork) is not OP-stack here
    const tabled = tabledL1FeeRule(id)
    const opStack = tabled === undefined && (chainFeePolicy(id).family === 'op-stack' || known?.contracts?.gasPriceOracle !== undefined)
    const family = chainFeePolicy(id, undefined, { opStack }).family
    const l1FeeRule: L1FeeRule | undefined = tabled ?? (opStack ? 'op-stack' : family === 'arbitrum' ? 'arbitrum' : undefined)
    chains.set(id, {
      id,
      name: known?.name ?? `Chain ${id}`,
      rpcUrls,
      nominalBlockTimeMs: (known as { blockTime?: number } | undefined)?.blockTime,
      nativeCurrency: known ? { symbol: known.nativeCurrency.symbol, decimals: known.nativeCurrency.decimals } : undefined,
      feePolicy: chainFeePolicy(id, Object.hasOwn(overrides, String(id)) ? overrides[String(id)] : undefined, { opStack }),
      opStack,
      ...(known?.testnet ? { testnet: true } : {}),
      ...(l1FeeRule ? { l1FeeRule } : {}),
      ...(!l1FeeRule && (known === undefined || L1_FEE_NOT_COMPUTED.has(id)) ? { unknownL1Fee: true } : {}),
    })
  }
  if (env.USE_PUBLIC_RPCS) {
    for (const id of DEFAULT_PUBLIC_CHAIN_IDS) {
      const url = knownChains().get(id)?.rpcUrls.default.http[0]
      if (url) add(id, [url])
    }
  }
  for (const [id, urls] of Object.entries(env.rpcUrls)) add(Number(id), urls)
  return new Map([...chains].sort(([a], [b]) => a - b))
}

const memo = processSingleton('chain-registry', () => ({
  current: undefined as { key: object; chains: Map<number, ChainConfig> } | undefined,
}))

/** The supported chains of this process's environment (memoised). */
export function getChains(): Map<number, ChainConfig> {
  const env = getServerEnv()
  if (memo.current?.key !== env) memo.current = { key: env, chains: buildChainRegistry(env) }
  return memo.current.chains
}

export function getChain(chainId: number): ChainConfig | undefined {
  return getChains().get(chainId)
}
