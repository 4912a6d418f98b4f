import type { Client } from 'viem'
import type { FeeWindow } from '../fees/types'
import { FeeMarketUnsupportedError, UpstreamBadResponseError, UpstreamUnavailableError } from '../http/errors'
import { processSingleton } from '../process-singleton'
import { classifyRpcError } from './classify-error'
import { withDeadline } from './deadline'
import { getRpcClient } from './client'
import { RpcBlockHeaderSchema, RpcChainIdSchema, RpcFeeHistorySchema, type RpcBlockHeader } from './schemas'
import type { z } from 'zod'

export type ReadFeeWindowParameters = {
  chainId: number
  /** Tried in order; an URL that failed is skipped for UNHEALTHY_MS while another is left. */
  rpcUrls: readonly string[]
  /** Blocks in the window (the API's history is 500). */
  blockCount: number
  /** Reward percentiles asked of eth_feeHistory. */
  rewardPercentiles: readonly number[]
  /** The whole read, over every URL, ends by then: ms. */
  timeoutMs: number
  /** The previous window of this chain, whose interval anchor and head are reused. */
  previous?: FeeWindow
  /** Used for the interval only when fewer than two blocks exist, ms. */
  fallbackBlockTimeMs: number
}

/** How long an URL that failed is skipped, ms. */
export const UNHEALTHY_MS = 30_000
/** A head this far behind the previous one is not a reorg but a broken or lagging node. */
const REORG_TOLERANCE_BLOCKS = 64
/** A 'finalized' block further back than this is not used to measure the interval. */
const MAX_ANCHOR_DISTANCE = 100_000
/** Re-anchor the interval measurement when its anchor is older than this many windows. */
const ANCHOR_MAX_WINDOWS = 4

type UrlHealth = { unhealthyUntil: number; verifiedChainId?: number }
const health = processSingleton('rpc-health', () => new Map<string, UrlHealth>())

/**
 * Reads a chain's fee window: one JSON-RPC batch per URL (eth_getBlockByNumber latest +
 * eth_feeHistory, plus eth_chainId the first time an URL is used and the interval anchor block when
 * it is due; a cold read adds the 'finalized' block as its anchor), validated with zod. Only a cold
 * read of a node that lacks the 'finalized' tag needs a second round, for the window's first block.
 */
export async function readFeeWindow(params: ReadFeeWindowParameters): Promise<FeeWindow> {
  const deadline = Date.now() + params.timeoutMs
  const now = Date.now()
  const ordered = [...params.rpcUrls].sort(
    (a, b) => Number((health.get(a)?.unhealthyUntil ?? 0) > now) - Number((health.get(b)?.unhealthyUntil ?? 0) > now),
  )
  let lastError: Error = new UpstreamUnavailableError('No RPC endpoint is configured for this chain.')
  let unsupported: FeeMarketUnsupportedError | undefined
  for (const [i, url] of ordered.entries()) {
    const remaining = deadline - Date.now()
    if (remaining <= 0) break
    // each URL gets its share of what is left, so a hanging first URL leaves time for the next
    const urlsLeft = ordered.length - i
    const budget = urlsLeft > 1 ? Math.max(remaining / urlsLeft, Math.min(remaining, 1_000)) : remaining
    try {
      const window = await withDeadline(readFromUrl(url, params.timeoutMs, params), budget)
      const h = health.get(url)
      if (h) h.unhealthyUntil = 0
      return window
    } catch (err) {
      // one node without baseFeePerGas may be misconfigured: try the others before concluding
      if (err instanceof FeeMarketUnsupportedError) unsupported = err
      else lastError = classifyRpcError(err)
      const h = health.get(url) ?? { unhealthyUntil: 0 }
      h.unhealthyUntil = Date.now() + UNHEALTHY_MS
      health.set(url, h)
    }
  }
  throw unsupported ?? lastError
}

function parse<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const result = schema.safeParse(value)
  if (!result.success) {
    throw new UpstreamBadResponseError(`The upstream node's ${what} answer is malformed.`, { cause: result.error })
  }
  return result.data
}

async function getHeader(client: Client, block: number | 'latest' | 'finalized'): Promise<RpcBlockHeader> {
  const tag = typeof block === 'string' ? block : (`0x${block.toString(16)}` as const)
  const raw = await client.request({ method: 'eth_getBlockByNumber', params: [tag, false] })
  if (raw === null) throw new UpstreamBadResponseError(`The upstream node does not know block ${block}.`)
  return parse(RpcBlockHeaderSchema, raw, 'eth_getBlockByNumber')
}

async function readFromUrl(url: string, timeoutMs: number, p: ReadFeeWindowParameters): Promise<FeeWindow> {
  const client = getRpcClient(url, timeoutMs)
  const known = health.get(url)?.verifiedChainId
  const prevAnchor = p.previous?.intervalAnchor ?? null
  const anchorDue =
    p.previous !== undefined && (prevAnchor === null || p.previous.headNumber - prevAnchor.number > ANCHOR_MAX_WINDOWS * p.blockCount)

  // One round: these calls leave in a single JSON-RPC batch. A cold read also asks for the
  // 'finalized' block, a block some way back whose number needs no earlier answer, to measure the
  // interval from; a node without that tag costs one more call below.
  const cold = p.previous === undefined
  const [chainIdRaw, head, history, freshAnchor, finalized] = await Promise.all([
    known === undefined ? client.request({ method: 'eth_chainId' }) : Promise.resolve(undefined),
    getHeader(client, 'latest'),
    client.request({
      method: 'eth_feeHistory',
      params: [`0x${p.blockCount.toString(16)}`, 'latest', [...p.rewardPercentiles]],
    }),
    anchorDue && p.previous ? getHeader(client, p.previous.oldestBlock) : Promise.resolve(undefined),
    cold ? getHeader(client, 'finalized').catch(() => undefined) : Promise.resolve(undefined),
  ])

  if (known === undefined) {
    const served = parse(RpcChainIdSchema, chainIdRaw, 'eth_chainId')
    if (served !== p.chainId) {
      throw new UpstreamBadResponseError(`The RPC endpoint configured for chain ${p.chainId} serves chain ${served}.`)
    }
    health.set(url, { unhealthyUntil: 0, verifiedChainId: served })
  } else if (known !== p.chainId) {
    throw new UpstreamBadResponseError(`The RPC endpoint configured for chain ${p.chainId} serves chain ${known}.`)
  }

  if (head.baseFeePerGas === undefined || head.baseFeePerGas === null) throw new FeeMarketUnsupportedError(p.chainId)
  const fh = parse(RpcFeeHistorySchema, history, 'eth_feeHistory')
  const blocks = fh.gasUsedRatio.length
  if (blocks === 0) throw new UpstreamBadResponseError('The upstream node returned an empty fee history.')
  const reward = fh.reward ?? []
  if (reward.some((row) => row.length !== p.rewardPercentiles.length)) {
    throw new UpstreamBadResponseError("The upstream node's eth_feeHistory rewards do not match the percentiles asked.")
  }
  const headNumber = fh.oldestBlock + blocks - 1

  // A block may land between the two calls of the batch; then read the header eth_feeHistory ends at.
  const headHeader = head.number === headNumber ? head : await getHeader(client, headNumber)
  if (p.previous && headNumber < p.previous.headNumber - REORG_TOLERANCE_BLOCKS) {
    throw new UpstreamBadResponseError(`The upstream node's head went back from ${p.previous.headNumber} to ${headNumber}.`)
  }

  const usable = (h: RpcBlockHeader | undefined) =>
    h && h.number < headNumber && headNumber - h.number <= MAX_ANCHOR_DISTANCE ? { number: h.number, timestamp: h.timestamp } : null
  let anchor: { number: number; timestamp: number } | null = usable(freshAnchor) ?? usable(finalized) ?? (anchorDue ? null : prevAnchor)
  if (anchor === null || anchor.number >= headNumber) {
    if (fh.oldestBlock < headNumber) {
      const h = await getHeader(client, fh.oldestBlock)
      anchor = { number: h.number, timestamp: h.timestamp }
    } else {
      anchor = null
    }
  }
  const blockIntervalMs =
    anchor && headHeader.timestamp > anchor.timestamp
      ? Math.round(((headHeader.timestamp - anchor.timestamp) * 1000) / (headNumber - anchor.number))
      : p.fallbackBlockTimeMs

  const hexToDec = (h: string) => BigInt(h).toString()
  // the schema holds one base fee more than blocks: the next block's
  const nextBaseFee = fh.baseFeePerGas[blocks]
  if (nextBaseFee === undefined)
    throw new UpstreamBadResponseError("The upstream node's eth_feeHistory has no base fee for the next block.")
  return {
    chainId: p.chainId,
    oldestBlock: fh.oldestBlock,
    headNumber,
    headTimestamp: headHeader.timestamp,
    blockIntervalMs,
    intervalAnchor: anchor,
    baseFeePerGas: fh.baseFeePerGas.slice(0, blocks).map(hexToDec),
    nextBaseFeePerGas: hexToDec(nextBaseFee),
    gasUsedRatio: fh.gasUsedRatio,
    rewardPercentiles: [...p.rewardPercentiles],
    reward: reward.map((row) => row.map(hexToDec)),
    fetchedAt: Date.now(),
  }
}
