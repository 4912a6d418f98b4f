import 'server-only'
import { z } from 'zod'
import { UpstreamBadResponseError, UpstreamUnavailableError } from '../core/contract/errors'
import { withDeadline } from '../runtime/deadline'
import { classifyRpcError } from './classify-error'
import { getRpcClient } from './client'
import { SafeIntHex, Uint128Hex } from './schemas'
import { healthyFirst } from './url-health'

/** A transaction of the pending block, as far as its piece's auction needs it. */
const PendingTxSchema = z.object({
  hash: z.string(),
  type: z.string().nullish(),
  gas: Uint128Hex,
  gasPrice: Uint128Hex.nullish(),
  maxFeePerGas: Uint128Hex.nullish(),
  maxPriorityFeePerGas: Uint128Hex.nullish(),
})

const PendingBlockSchema = z.object({
  number: SafeIntHex,
  timestamp: SafeIntHex,
  gasLimit: Uint128Hex,
  gasUsed: Uint128Hex,
  baseFeePerGas: Uint128Hex.nullish(),
  transactions: z.array(PendingTxSchema),
})

/** The node's `pending` block, JSON-plain: the user transactions' hashes, declared gas limits and effective tips (wei). */
export type PendingBlockRead = {
  number: number
  gasLimit: string
  gasUsed: string
  /** Deposits and other system transactions (OP-stack type 0x7e) are left out: they hold no auction. */
  txs: { hash: string; gas: string; tip: string }[]
  /** Whether the block opens with an OP-stack deposit (every OP-stack block does: the L1 attributes transaction). */
  deposit: boolean
  /** ms since the epoch */
  readAt: number
}

/** OP-stack deposit transactions (ethereum-optimism/specs protocol/deposits.md): the system's, not a user's. */
const DEPOSIT_TX_TYPE = 0x7en

/** A transaction's effective tip at the block's base fee, wei: min(maxPriorityFeePerGas, maxFeePerGas − base fee), or gasPrice − base fee. */
function effectiveTip(tx: z.output<typeof PendingTxSchema>, baseFee: bigint): bigint {
  const cap = BigInt(tx.maxFeePerGas ?? tx.gasPrice ?? '0x0') - baseFee
  const tip = tx.maxPriorityFeePerGas == null ? cap : BigInt(tx.maxPriorityFeePerGas)
  const effective = tip < cap ? tip : cap
  return effective > 0n ? effective : 0n
}

/**
 * Reads the node's `pending` block with its transactions (one eth_getBlockByNumber), from the first healthy URL
 * within `timeoutMs`. On a flashblocks node it is the block under construction, as far as its pieces got.
 * @throws UpstreamUnavailableError, UpstreamBadResponseError
 */
export async function readPendingBlock(rpcUrls: readonly string[], timeoutMs: number): Promise<PendingBlockRead> {
  const url = healthyFirst(rpcUrls, Date.now())[0]
  if (url === undefined) throw new UpstreamUnavailableError('No RPC endpoint is configured for this chain.')
  let raw: unknown
  try {
    raw = await withDeadline(getRpcClient(url, timeoutMs).request({ method: 'eth_getBlockByNumber', params: ['pending', true] }), timeoutMs)
  } catch (err) {
    throw classifyRpcError(err)
  }
  const parsed = PendingBlockSchema.safeParse(raw)
  if (!parsed.success) throw new UpstreamBadResponseError("The upstream node's pending block is malformed.", { cause: parsed.error })
  const block = parsed.data
  const baseFee = BigInt(block.baseFeePerGas ?? '0x0')
  const isDeposit = (tx: { type?: string | null }) => tx.type != null && BigInt(tx.type) === DEPOSIT_TX_TYPE
  const txs = block.transactions
    .filter((tx) => !isDeposit(tx))
    .map((tx) => ({ hash: tx.hash, gas: BigInt(tx.gas).toString(), tip: effectiveTip(tx, baseFee).toString() }))
  return {
    number: block.number,
    gasLimit: BigInt(block.gasLimit).toString(),
    gasUsed: BigInt(block.gasUsed).toString(),
    txs,
    deposit: block.transactions[0] !== undefined && isDeposit(block.transactions[0]),
    readAt: Date.now(),
  }
}
