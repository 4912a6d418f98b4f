import 'server-only'
import type { Client } from 'viem'
import type { z } from 'zod'
import type { FeeWindow, L1FeeRule } from '../core/types'
import { FeeMarketUnsupportedError, UpstreamBadResponseError, UpstreamUnavailableError } from '../core/contract/errors'
import { parseLineaExtraData } from '../core/fee-math/linea-fee'
import { classifyRpcError } from './classify-error'
import { getRpcClient } from './client'
import { feeHistoryWithinCap } from './fee-history-cap'
import type { ChainRead } from '../core/chain-rules/fast-chains'
import { readChainReads } from './read-chain-reads'
import { l1FeeParamsAt, readL1FeeParams, readL1FeeParamsProbed } from './read-l1-fee-params'
import { RpcBlockHeaderSchema, RpcChainIdSchema, RpcFeeHistorySchema, type RpcBlockHeader } from './schemas'
import { setVerifiedChainId, verifiedChainId } from './url-health'
import { checkBaseFeeBounds, checkOverlap, checkRewards, headMove, type FeeHistory } from './window-checks'

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
  /** false: `previous` is too old to refuse a node behind it or a changed history (half MAX_STALE_SECONDS). */
  previousVouches?: boolean
  /** Used for the interval only when fewer than two blocks exist, ms. */
  fallbackBlockTimeMs: number
  /**
   * The chain's protocol bounds on the base fee's change from one block to the next (ppm of the
   * parent's), where the chain's fee policy enforces them: a window outside them is refused.
   */
  baseFeeBounds?: { risePpm: bigint; fallPpm: bigint }
  /**
   * The L1 fee the chain charges: its predeploys are read at the head block the window names, never at `latest`
   * (read-l1-fee-params.ts): in the window's own batch at the head predicted from `previous`, kept when that is
   * the head eth_feeHistory ends at, else (and on a cold read) pinned to that head in one more batch. `linea`: the
   * head's extraData is its pricing (no call).
   */
  l1FeeRule?: L1FeeRule
  /** What the chain's rules read beside the window (chainReadsOf), in the window's own batch; absent: nothing more. */
  chainReads?: readonly ChainRead[]
}

/** A 'finalized' block further back than this is not used to measure the interval. */
const MAX_ANCHOR_DISTANCE = 100_000
/**
 * The interval is measured over at least this many blocks (where the chain has them): a 'finalized'
 * block 2 blocks back (BSC's fast finality) would measure one rounded timestamp difference.
 */
export const MIN_ANCHOR_DISTANCE = 64
/**
 * ...and over at least this long (s) unless it is the window's oldest block: timestamps are whole seconds, so on
 * sub-second blocks (BSC 450 ms, Monad 300 ms, Arbitrum 250 ms) 64 blocks would measure the interval within ±5%.
 */
export const MIN_ANCHOR_SECONDS = 60
/** A provider that caps eth_feeHistory below the window is paged, in one more batch, at most this many pages. */
const MAX_PAGES = 20
/** Re-anchor the interval measurement when its anchor is older than this many windows. */
const ANCHOR_MAX_WINDOWS = 4

/**
 * The head a read is expected to find, from the last read on this process's own clock (a node's clock does not
 * enter): the last head plus the blocks its interval says have passed since it was read, at least one.
 * @example predictedHead({ headNumber: 100, fetchedAt: t, blockIntervalMs: 2_000 }, t + 4_100) // 102
 */
export function predictedHead(previous: Pick<FeeWindow, 'headNumber' | 'fetchedAt' | 'blockIntervalMs'>, now: number): number {
  const blocks = previous.blockIntervalMs > 0 ? Math.round((now - previous.fetchedAt) / previous.blockIntervalMs) : 1
  return previous.headNumber + (Number.isSafeInteger(blocks) && blocks > 1 ? blocks : 1)
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

export async function readFromUrl(url: string, timeoutMs: number, p: ReadFeeWindowParameters): Promise<FeeWindow> {
  const client = getRpcClient(url, timeoutMs)
  const known = verifiedChainId(url)
  const prevAnchor = p.previous?.intervalAnchor ?? null
  // an anchor set at a leap, not yet far back: a failover reads that block again and keeps it where it is the same
  const youngAnchor = prevAnchor && p.previous && prevAnchor.number > p.previous.oldestBlock ? prevAnchor : null
  // after a failover the anchor is read again from this node (it may serve another chain under the same id)
  const source = p.rpcUrls.indexOf(url)
  const anchorDue =
    p.previous !== undefined &&
    (prevAnchor === null ||
      p.previous.headNumber - prevAnchor.number > ANCHOR_MAX_WINDOWS * p.blockCount ||
      (p.previous.source !== undefined && p.previous.source !== source))

  // One round: these calls leave in a single JSON-RPC batch.
  const cold = p.previous === undefined
  const l1Rule = p.l1FeeRule === 'linea' ? undefined : p.l1FeeRule
  const l1Read = l1Rule ? { chainId: p.chainId, rule: l1Rule, previous: p.previous?.l1Fee } : undefined
  const [chainIdRaw, head, history, freshAnchor, finalized, l1Probed, chainReads] = await Promise.all([
    known === undefined ? client.request({ method: 'eth_chainId' }) : Promise.resolve(undefined),
    getHeader(client, 'latest'),
    feeHistoryWithinCap(client, url, p.blockCount, p.rewardPercentiles),
    anchorDue && p.previous
      ? getHeader(client, youngAnchor ? youngAnchor.number : p.previous.oldestBlock).catch(() => undefined)
      : Promise.resolve(undefined),
    cold ? getHeader(client, 'finalized').catch(() => undefined) : Promise.resolve(undefined),
    l1Read && p.previous
      ? readL1FeeParamsProbed(client, { ...l1Read, block: predictedHead(p.previous, Date.now()) })
      : Promise.resolve(undefined),
    readChainReads(client, p.chainReads ?? []),
  ])

  if (known === undefined) {
    const served = parse(RpcChainIdSchema, chainIdRaw, 'eth_chainId')
    if (served !== p.chainId) {
      throw new UpstreamBadResponseError(`The RPC endpoint configured for chain ${p.chainId} serves chain ${served}.`)
    }
    setVerifiedChainId(url, served)
  } else if (known !== p.chainId) {
    throw new UpstreamBadResponseError(`The RPC endpoint configured for chain ${p.chainId} serves chain ${known}.`)
  }

  // no baseFeePerGas: a chain without EIP-1559, read the same way (eth_feeHistory answers base fees of
  // 0 and whole gas prices as rewards), unless the chain had a fee market at the last read: then this
  // node is the odd one out
  const legacy = head.baseFeePerGas === undefined || head.baseFeePerGas === null
  if (legacy && p.previous && !p.previous.legacy) throw new FeeMarketUnsupportedError(p.chainId)
  let fh = checkRewards(parse(RpcFeeHistorySchema, history, 'eth_feeHistory'), p)
  if (fh.gasUsedRatio.length === 0) throw new UpstreamBadResponseError('The upstream node returned an empty fee history.')
  const headNumber = fh.oldestBlock + fh.gasUsedRatio.length - 1
  // a provider that caps eth_feeHistory (many answer at most 100 or 1,024 blocks) on a chain that has
  // the blocks: the older part comes in one more batch of pages, or the read is refused
  if (fh.gasUsedRatio.length < p.blockCount && fh.oldestBlock > 0) fh = await pageOlder(client, fh, p)

  // A block may land between the calls of the batch; then read the header eth_feeHistory ends at. The L1 fee
  // parameters are always those of the window's head: read pinned to it in the same batch unless the predicted
  // head they were read at is that head (a cold read has no prediction)
  const [headHeader, l1Fee] = await Promise.all([
    head.number === headNumber ? head : getHeader(client, headNumber),
    l1Probed ? l1FeeParamsAt(client, l1Probed, headNumber) : l1Read ? readL1FeeParams(client, { ...l1Read, block: headNumber }) : undefined,
  ])
  const lineaPricing = p.l1FeeRule === 'linea' && headHeader.extraData ? parseLineaExtraData(headHeader.extraData) : null
  // a last window too old to vouch for the head: a node behind is taken as a chain started anew
  const vouches = p.previousVouches !== false
  const moved = p.previous ? headMove(p.previous, headNumber, headHeader.timestamp, Date.now()) : 'forward'
  const move = moved === 'behind' && !vouches ? 'restarted' : moved
  if (p.previous && headNumber < p.previous.headNumber && move === 'forward') return { ...p.previous, fetchedAt: Date.now() }
  if (p.previous && move === 'behind') {
    throw new UpstreamBadResponseError(
      `The upstream node's head went back from ${p.previous.headNumber} to ${headNumber}: the node is behind.`,
    )
  }
  if (legacy && fh.baseFeePerGas.some((h) => BigInt(h) !== 0n)) {
    throw new UpstreamBadResponseError("The upstream node's eth_feeHistory reports base fees for blocks that carry none.")
  }
  if (p.baseFeeBounds && !legacy) checkBaseFeeBounds(fh, p.baseFeeBounds)
  // a chain that moved to EIP-1559 (a fork) has base fees where the last window had zeros: nothing to compare
  if (p.previous && vouches && move !== 'restarted' && (p.previous.legacy === true) === legacy) checkOverlap(fh, p.previous)

  const distance = (h: { number: number }) => headNumber - h.number
  const usable = (h: RpcBlockHeader | undefined) =>
    h &&
    distance(h) > 0 &&
    distance(h) <= MAX_ANCHOR_DISTANCE &&
    ((distance(h) >= MIN_ANCHOR_DISTANCE && headHeader.timestamp - h.timestamp >= MIN_ANCHOR_SECONDS) || h.number <= fh.oldestBlock)
      ? { number: h.number, timestamp: h.timestamp }
      : null
  // a restarted chain is measured anew; a leap from the new head, the last interval kept until it is far enough back
  let anchor: { number: number; timestamp: number } | null =
    move === 'jumped'
      ? { number: headNumber, timestamp: headHeader.timestamp }
      : youngAnchor && anchorDue
        ? freshAnchor?.timestamp === youngAnchor.timestamp && move !== 'restarted'
          ? youngAnchor
          : null
        : (usable(freshAnchor) ?? usable(finalized) ?? (anchorDue || move === 'restarted' ? null : prevAnchor))
  if (anchor === null || anchor.number > headNumber || (anchor.number === headNumber && move !== 'jumped' && anchor !== prevAnchor)) {
    if (fh.oldestBlock < headNumber) {
      const h = await getHeader(client, fh.oldestBlock)
      anchor = { number: h.number, timestamp: h.timestamp }
    } else {
      anchor = null
    }
  }
  // an anchor set at a leap measures once it is as far back as any other; until then the last interval stands
  const young =
    anchor !== null &&
    anchor.number > fh.oldestBlock &&
    (headNumber - anchor.number < MIN_ANCHOR_DISTANCE || headHeader.timestamp - anchor.timestamp < MIN_ANCHOR_SECONDS)
  const blockIntervalMs =
    young && p.previous
      ? p.previous.blockIntervalMs
      : anchor && headHeader.timestamp > anchor.timestamp
        ? Math.round(((headHeader.timestamp - anchor.timestamp) * 1000) / (headNumber - anchor.number))
        : p.fallbackBlockTimeMs

  const hexToDec = (h: string) => BigInt(h).toString()
  const blocks = fh.gasUsedRatio.length
  const next = fh.baseFeePerGas[blocks]
  if (next === undefined) throw new UpstreamBadResponseError("The upstream node's eth_feeHistory has no next base fee.")
  return {
    chainId: p.chainId,
    oldestBlock: fh.oldestBlock,
    headNumber,
    headTimestamp: headHeader.timestamp,
    blockIntervalMs,
    intervalAnchor: anchor,
    baseFeePerGas: fh.baseFeePerGas.slice(0, blocks).map(hexToDec),
    nextBaseFeePerGas: hexToDec(next),
    gasUsedRatio: fh.gasUsedRatio,
    rewardPercentiles: [...p.rewardPercentiles],
    reward: (fh.reward ?? []).map((row) => row.map(hexToDec)),
    ...blobFieldsOf(fh, blocks, hexToDec),
    ...(headHeader.excessBlobGas != null && headHeader.blobGasUsed != null
      ? { headExcessBlobGas: BigInt(headHeader.excessBlobGas).toString(), headBlobGasUsed: BigInt(headHeader.blobGasUsed).toString() }
      : {}),
    ...(headHeader.extraData ? { headExtraData: headHeader.extraData } : {}),
    ...(headHeader.gasLimit ? { headGasLimit: BigInt(headHeader.gasLimit).toString() } : {}),
    ...(headHeader.baseFeePerGas ? { headBaseFeePerGas: BigInt(headHeader.baseFeePerGas).toString() } : {}),
    ...(headHeader.transactions ? { headTransactionCount: headHeader.transactions.length } : {}),
    ...(l1Fee ? { l1Fee } : {}),
    ...(lineaPricing ? { lineaPricing } : {}),
    ...(chainReads ? { chainReads } : {}),
    ...(legacy ? { legacy: true as const } : {}),
    ...(source >= 0 ? { source } : {}),
    fetchedAt: Date.now(),
  }
}

/**
 * The window's blob fields (EIP-4844), all three or none: kept only where the node sent both
 * baseFeePerBlobGas and blobGasUsedRatio for every block of the window (pageOlder drops them when a
 * page lacks them). The blob fees are computed from them (lib/core/fee-math/blob-fees.ts), no call of their own.
 */
function blobFieldsOf(
  fh: FeeHistory,
  blocks: number,
  hexToDec: (h: string) => string,
): Pick<FeeWindow, 'baseFeePerBlobGas' | 'nextBaseFeePerBlobGas' | 'blobGasUsedRatio'> {
  const next = fh.baseFeePerBlobGas?.[blocks]
  if (fh.baseFeePerBlobGas === undefined || fh.blobGasUsedRatio === undefined || next === undefined) return {}
  return {
    baseFeePerBlobGas: fh.baseFeePerBlobGas.slice(0, blocks).map(hexToDec),
    nextBaseFeePerBlobGas: hexToDec(next),
    blobGasUsedRatio: fh.blobGasUsedRatio,
  }
}

/**
 * The older part of a window the node served short: pages of the size it answered, ending just
 * before what it served, all in one batch; each must join the next without a gap and agree with it on
 * the base fee at the seam (a page's last base fee is the next block's). Refused when still short.
 */
async function pageOlder(client: Client, first: FeeHistory, p: ReadFeeWindowParameters): Promise<FeeHistory> {
  const pageSize = first.gasUsedRatio.length
  const wanted = Math.min(p.blockCount, first.oldestBlock + pageSize) - pageSize
  const pages: { count: number; newest: number }[] = []
  for (let newest = first.oldestBlock - 1, left = wanted; left > 0 && newest >= 0 && pages.length < MAX_PAGES;) {
    const count = Math.min(pageSize, left, newest + 1)
    pages.push({ count, newest })
    newest -= count
    left -= count
  }
  const answers = await Promise.all(
    pages.map(({ count, newest }) =>
      client.request({
        method: 'eth_feeHistory',
        params: [`0x${count.toString(16)}`, `0x${newest.toString(16)}`, [...p.rewardPercentiles]],
      }),
    ),
  ).catch((cause: unknown) => {
    // a timeout or a rate limit stays what it is; a node that cannot serve the older blocks is refused
    const classified = classifyRpcError(cause)
    if (classified instanceof UpstreamUnavailableError) throw classified
    throw new UpstreamBadResponseError(
      `The upstream node served ${pageSize} of the ${Math.min(p.blockCount, first.oldestBlock + pageSize)} blocks of fee history asked for, and not the older ones.`,
      { cause: classified },
    )
  })
  let joined = first
  for (const [i, answer] of answers.entries()) {
    const page = checkRewards(parse(RpcFeeHistorySchema, answer, 'eth_feeHistory'), p)
    const n = page.gasUsedRatio.length
    const seam = page.baseFeePerGas[n]
    const joinedFirst = joined.baseFeePerGas[0]
    if (
      n === 0 ||
      page.oldestBlock + n !== joined.oldestBlock ||
      seam === undefined ||
      joinedFirst === undefined ||
      BigInt(seam) !== BigInt(joinedFirst)
    ) {
      const asked = pages[i]!
      const problem =
        n === 0
          ? `page ${i + 1} of the window's older blocks came back empty`
          : page.oldestBlock + n - 1 !== asked.newest
            ? `page ${i + 1} of the window's older blocks, asked to end at block ${asked.newest}, came back as blocks ${page.oldestBlock}–${page.oldestBlock + n - 1}`
            : page.oldestBlock + n !== joined.oldestBlock
              ? `page ${i + 1} of the window's older blocks ends at block ${page.oldestBlock + n - 1}, the next starts at ${joined.oldestBlock}`
              : seam === undefined || joinedFirst === undefined
                ? `page ${i + 1} of the window's older blocks or the next lacks block ${joined.oldestBlock}'s base fee`
                : `page ${i + 1} of the window's older blocks and the next disagree on block ${joined.oldestBlock}'s base fee`
      throw new UpstreamBadResponseError(`The upstream node's eth_feeHistory pages do not join (${problem}).`)
    }
    // blob fields only when every page has them (a page's last blob base fee is not checked against the next
    // page's first: at a fork the node prices "next" with the parent's fork, the block itself with its own)
    const blobs =
      page.baseFeePerBlobGas && page.blobGasUsedRatio && joined.baseFeePerBlobGas && joined.blobGasUsedRatio
        ? {
            baseFeePerBlobGas: [...page.baseFeePerBlobGas.slice(0, n), ...joined.baseFeePerBlobGas],
            blobGasUsedRatio: [...page.blobGasUsedRatio, ...joined.blobGasUsedRatio],
          }
        : { baseFeePerBlobGas: undefined, blobGasUsedRatio: undefined }
    joined = {
      oldestBlock: page.oldestBlock,
      baseFeePerGas: [...page.baseFeePerGas.slice(0, n), ...joined.baseFeePerGas],
      gasUsedRatio: [...page.gasUsedRatio, ...joined.gasUsedRatio],
      reward: [...(page.reward ?? []), ...(joined.reward ?? [])],
      ...blobs,
    }
  }
  const expected = Math.min(p.blockCount, first.oldestBlock + pageSize)
  if (joined.gasUsedRatio.length < expected) {
    throw new UpstreamBadResponseError(
      `The upstream node served ${joined.gasUsedRatio.length} of the ${expected} blocks of fee history asked for.`,
    )
  }
  return joined
}
