import 'server-only'
import { decodeFunctionResult, encodeFunctionData, parseAbi, type Abi, type Address, type Client, type Hex } from 'viem'

/**
 * View calls read together, all at one block: one Multicall3 `aggregate3` eth_call where the chain has
 * Multicall3, else one eth_call each, all pinned to the same block and sent at once (one JSON-RPC batch).
 */

/** One view call: a getter without arguments. */
export type ViewCall = { to: Address; abi: Abi; functionName: string }

/**
 * Multicall3's address (mds1/multicall3 @ 5f900621 deployments.json): the same on every chain but zkSync Era
 * and its Sepolia testnet, where the EVM-equivalent deployer gives another.
 */
export function multicall3Address(chainId: number): Address {
  return chainId === 324 || chainId === 300 ? '0xF9cda624FBC7e059355ce98a31693d299FACd963' : '0xcA11bde05977b3631167028862bE2a173976CA11'
}

// mds1/multicall3 src/Multicall3.sol
const MULTICALL3_ABI = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
  'function getBlockNumber() view returns (uint256 blockNumber)',
])

/** Multicall3.getBlockNumber(): `block.number` of the call, the L2 block on the chains read here (Arbitrum: see the caller). */
export function blockNumberCall(chainId: number): ViewCall {
  return { to: multicall3Address(chainId), abi: MULTICALL3_ABI, functionName: 'getBlockNumber' }
}

const tag = (block: number) => `0x${block.toString(16)}` as const

/** A call's answer decoded, or undefined: a revert, no code at the address, or data that is not the getter's. */
function decoded(call: ViewCall, data: Hex): unknown {
  if (data === '0x') return undefined
  try {
    return decodeFunctionResult({ abi: call.abi, functionName: call.functionName, data })
  } catch {
    return undefined
  }
}

/**
 * What one aggregate3 at a block found: the calls' values (undefined for each that failed alone); `absent`: the
 * node ran it and found no Multicall3 (empty data, or an answer that is not aggregate3's); `failed`: the node
 * did not run it (an error: a block it has not mined yet, a revert, a timeout), so nothing is known of Multicall3.
 */
type Aggregated = { values: unknown[] } | 'absent' | 'failed'

/** `calls` through Multicall3's aggregate3 at block number `block` (each call may fail alone). */
async function aggregate3(client: Client, chainId: number, block: number, calls: readonly ViewCall[]): Promise<Aggregated> {
  const data = encodeFunctionData({
    abi: MULTICALL3_ABI,
    functionName: 'aggregate3',
    args: [
      calls.map((c) => ({ target: c.to, allowFailure: true, callData: encodeFunctionData({ abi: c.abi, functionName: c.functionName }) })),
    ],
  })
  let raw: Hex
  try {
    raw = (await client.request({ method: 'eth_call', params: [{ to: multicall3Address(chainId), data }, tag(block)] })) as Hex
  } catch {
    return 'failed'
  }
  try {
    const results = decodeFunctionResult({ abi: MULTICALL3_ABI, functionName: 'aggregate3', data: raw })
    if (results.length !== calls.length) return 'absent'
    return { values: calls.map((c, i) => (results[i]?.success ? decoded(c, results[i].returnData) : undefined)) }
  } catch {
    return 'absent'
  }
}

/** `calls` one eth_call each at `block`, made at once so that they leave in one batch; undefined for each that fails. */
async function eachCall(client: Client, block: number, calls: readonly ViewCall[]): Promise<unknown[]> {
  return Promise.all(
    calls.map(async (c) => {
      try {
        const data = encodeFunctionData({ abi: c.abi, functionName: c.functionName })
        return decoded(c, (await client.request({ method: 'eth_call', params: [{ to: c.to, data }, tag(block)] })) as Hex)
      } catch {
        return undefined
      }
    }),
  )
}

/**
 * The values of `calls` at block number `block`, in order (undefined for a call that failed): one aggregate3, or one
 * eth_call each where Multicall3 is absent. A node that failed the aggregate3 (a timeout) is not asked once per getter.
 */
export async function readCallsAt(
  client: Client,
  p: { chainId: number; block: number; calls: readonly ViewCall[]; multicall?: boolean },
): Promise<unknown[]> {
  const viaMulticall = p.multicall === false ? 'absent' : await aggregate3(client, p.chainId, p.block, p.calls)
  if (viaMulticall === 'failed') return p.calls.map(() => undefined)
  return typeof viaMulticall === 'object' ? viaMulticall.values : eachCall(client, p.block, p.calls)
}

/**
 * The values of `calls` at block number `block` (which may not be mined yet), with the block they were read at: one
 * aggregate3 whose first call is `probe`, a block-number getter (a node that ignores the tag gives itself away).
 * `multicall`: false where Multicall3 is absent; undefined where the node did not run it. No `blockNumber` where the probe failed.
 */
export async function readCallsProbed(
  client: Client,
  p: { chainId: number; block: number; calls: readonly ViewCall[]; probe: ViewCall },
): Promise<{ multicall?: false } | { multicall: true; blockNumber?: number; values: unknown[] }> {
  const results = await aggregate3(client, p.chainId, p.block, [p.probe, ...p.calls])
  if (results === 'failed') return {}
  if (results === 'absent') return { multicall: false }
  const [block, ...values] = results.values
  const blockNumber = typeof block === 'bigint' && block <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(block) : undefined
  return { multicall: true, ...(blockNumber === undefined ? {} : { blockNumber }), values }
}
