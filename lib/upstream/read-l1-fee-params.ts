import 'server-only'
import type { Client } from 'viem'
import type { L1FeeParams } from '../core/types'
import { headProbe, l1FeeGetters, l1FeeParamsOf, type PredeployRule } from './l1-fee-getters'
import { readCallsAt, readCallsProbed } from './multicall3'

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
 * The rule's parameters at block number `block`: one aggregate3 pinned to it, or one eth_call per getter where the
 * chain has no Multicall3 (or `multicall: false`).
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

/** What a read at the predicted head found, for l1FeeParamsAt once the window's head is known. */
export type L1FeeProbedRead = {
  read: ReadL1FeeParamsParameters
  /** The block the parameters are of (absent: Multicall3 did not answer or did not say). */
  blockNumber?: number
  params?: L1FeeParams
  /** false: Multicall3 is not on the chain; undefined: not known (the node did not run the call). */
  multicall?: boolean
}

/**
 * The first half of a window's read, made before the head is known so that it leaves in the window's own batch: at
 * `block`, the head predicted, with the block it ran at. A block not mined yet is no error: l1FeeParamsAt reads the head's.
 * @example readL1FeeParamsProbed(client, { chainId: 534352, rule: 'scroll', block: previous.headNumber + 1 })
 */
export async function readL1FeeParamsProbed(client: Client, p: ReadL1FeeParamsParameters & { block: number }): Promise<L1FeeProbedRead> {
  const { block, ...read } = p
  const getters = l1FeeGetters(p.rule, p.previous)
  const probed = await readCallsProbed(client, {
    chainId: p.chainId,
    block,
    calls: Object.values(getters),
    probe: headProbe(p.rule, p.chainId),
  })
  if (probed.multicall !== true) return { read, ...probed }
  return { read, multicall: true, blockNumber: probed.blockNumber, params: paramsOf(p, Object.keys(getters), probed.values) }
}

/**
 * The second half: the parameters at block `headNumber`, the block the window names: those read with the batch when
 * the prediction held, else a read pinned to `headNumber` (readL1FeeParams).
 */
export async function l1FeeParamsAt(client: Client, probed: L1FeeProbedRead, headNumber: number): Promise<L1FeeParams> {
  if (probed.params && probed.blockNumber === headNumber) return probed.params
  return readL1FeeParams(client, { ...probed.read, block: headNumber, multicall: probed.multicall })
}
