import 'server-only'
import type { Client } from 'viem'
import type { L1FeeParams } from '../core/types'
import { headProbe, l1FeeGetters, l1FeeParamsOf, type PredeployRule } from './l1-fee-getters'
import { readCallsAt, readCallsAtHead } from './multicall3'

/**
 * The L1 fee parameters of a block, every one of the same block (L1Block is rewritten by the first
 * transaction of every L2 block: calls at `latest` may straddle two blocks, and neither need be the
 * block a window names). Never throws: a chain whose predeploys do not answer is `unavailable`.
 */

export type ReadL1FeeParamsParameters = {
  chainId: number
  rule: PredeployRule
  /** The last read's parameters: forks seen active then are not asked again. */
  previous?: L1FeeParams
}

function paramsOf(p: ReadL1FeeParamsParameters, names: string[], values: unknown[]): L1FeeParams {
  return l1FeeParamsOf(p.rule, Object.fromEntries(names.map((name, i) => [name, values[i]])), p.previous)
}

/**
 * The rule's parameters at block number `block`: one Multicall3 aggregate3 eth_call pinned to that block, or
 * where the chain has no Multicall3 (or `multicall: false`, known from a read at the head) one eth_call per
 * getter, all pinned to that block and sent at once.
 * @example readL1FeeParams(client, { chainId: 534352, rule: 'scroll', block: 26_000_000 })
 */
export async function readL1FeeParams(
  client: Client,
  p: ReadL1FeeParamsParameters & { block: number; multicall?: boolean },
): Promise<L1FeeParams> {
  const getters = l1FeeGetters(p.rule, p.previous)
  const names = Object.keys(getters)
  const values = await readCallsAt(client, { chainId: p.chainId, block: p.block, calls: Object.values(getters), multicall: p.multicall })
  return paramsOf(p, names, values)
}

/** What a read at the head found, for l1FeeParamsAt once the window's head is known. */
export type L1FeeHeadRead = {
  read: ReadL1FeeParamsParameters
  /** The block the parameters are of (absent: Multicall3 did not answer or did not say). */
  blockNumber?: number
  params?: L1FeeParams
  multicall: boolean
}

/**
 * The first half of a window's read of the parameters, made before the head is known so that it leaves in
 * the window's own JSON-RPC batch: one aggregate3 at the node's head that also returns the number of the
 * block it ran at (Multicall3.getBlockNumber; Arbitrum: ArbSys.arbBlockNumber).
 */
export async function readL1FeeParamsAtHead(client: Client, p: ReadL1FeeParamsParameters): Promise<L1FeeHeadRead> {
  const getters = l1FeeGetters(p.rule, p.previous)
  const head = await readCallsAtHead(client, { chainId: p.chainId, calls: Object.values(getters), probe: headProbe(p.rule, p.chainId) })
  if (!head.multicall) return { read: p, multicall: false }
  return { read: p, multicall: true, blockNumber: head.blockNumber, params: paramsOf(p, Object.keys(getters), head.values) }
}

/**
 * The second half: the parameters at block `headNumber`, the block the window names. Those read with the batch
 * when they are of that block (the usual case: no call of its own); else (a block landed between the calls of
 * the batch, or the chain has no Multicall3) a read pinned to `headNumber` (readL1FeeParams).
 */
export async function l1FeeParamsAt(client: Client, head: L1FeeHeadRead, headNumber: number): Promise<L1FeeParams> {
  if (head.params && head.blockNumber === headNumber) return head.params
  return readL1FeeParams(client, { ...head.read, block: headNumber, multicall: head.multicall })
}
