/**
 * Blocknative's Gas Platform answers, translated from the service's own (lib/fees ConfidenceReport): fees in gwei
 * as JSON numbers (its clients do arithmetic on them), written in plain decimal with at most 9 decimals (1 wei),
 * never an exponent, NaN or null.
 */
import type { ConfidenceReport } from '../fees'
import { formatGwei } from '../core/units'
import type { ChainNames } from './names'

/** A gwei amount the serializer writes as a bare JSON number. */
class Gwei {
  constructor(readonly text: string) {}
  toJSON() {
    return `\u0000gwei:${this.text}\u0000`
  }
}

const gwei = (wei: bigint) => new Gwei(formatGwei(wei))

/** JSON text with every Gwei written as a number: formatGwei's plain decimal (digits, at most 9 after the point). */
function toJson(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0000gwei:([0-9]+(?:\.[0-9]+)?)\\u0000"/g, '$1')
}

/** Milliseconds since the head block's timestamp, never negative (a devnet's clock may run ahead of ours). */
const msSince = (blockTimestamp: number, now: number) => Math.max(0, Math.round(now - blockTimestamp * 1000))

/** How many blocks ahead Blocknative's estimatedBaseFees go: pending+1 … pending+5. */
export const ESTIMATED_BASE_FEE_BLOCKS = 5

/** The forecast's horizon of block pending + k: pending is head + 1 (horizon 1), so head + 1 + k. */
const horizonOf = <T extends { blocks: number }>(horizons: readonly T[], k: number): T => {
  const h = horizons.find((x) => x.blocks === k + 1)
  if (!h) throw new RangeError(`the forecast has no horizon ${k + 1}`)
  return h
}

/**
 * GET /gasprices/blockprices: the next block (head + 1) priced at each asked confidence; with `withBaseFees`, the
 * base fee of pending+1 … pending+5 at confidence 99 and 50 (the forecast's p99 and p50).
 */
export function blockPricesBody(report: ConfidenceReport, names: ChainNames, opts: { withBaseFees: boolean; now?: number }): string {
  const { meta } = report
  const now = opts.now ?? Date.now()
  return toJson({
    system: names.system,
    network: names.network,
    unit: 'gwei',
    maxPrice: gwei(report.maxPrice),
    currentBlockNumber: meta.blockNumber,
    msSinceLastBlock: msSince(meta.blockTimestamp, now),
    blockPrices: [
      {
        blockNumber: meta.blockNumber + 1,
        estimatedTransactionCount: report.headTransactionCount ?? 0,
        baseFeePerGas: gwei(report.nextBaseFee),
        ...(report.blob ? { blobBaseFeePerGas: gwei(report.blob.nextBlobBaseFee) } : {}),
        estimatedPrices: report.prices.map((p) => ({
          confidence: p.confidence,
          price: gwei(p.price),
          maxPriorityFeePerGas: gwei(p.maxPriorityFeePerGas),
          maxFeePerGas: gwei(p.maxFeePerGas),
        })),
      },
    ],
    ...(opts.withBaseFees
      ? {
          estimatedBaseFees: Array.from({ length: ESTIMATED_BASE_FEE_BLOCKS }, (_, i) => {
            const h = horizonOf(report.baseFeeForecast, i + 1)
            return {
              [`pending+${i + 1}`]: [
                { confidence: 99, baseFee: gwei(h.p99) },
                { confidence: 50, baseFee: gwei(h.p50) },
              ],
            }
          }),
        }
      : {}),
  })
}

/**
 * GET /gasprices/basefee-estimates: the next block's base fee (and blob base fee), and pending+1 … pending+5 at
 * confidence 99 and 50 from the base-fee forecast and, where the chain has blobs, the blob forecast.
 */
export function baseFeeEstimatesBody(report: ConfidenceReport, names: ChainNames, now = Date.now()): string {
  const { meta, blob } = report
  const at = (k: number, q: 'p99' | 'p50') => ({
    confidence: q === 'p99' ? 99 : 50,
    baseFee: gwei(horizonOf(report.baseFeeForecast, k)[q]),
    ...(blob ? { blobBaseFee: gwei(horizonOf(blob.forecast, k)[q]) } : {}),
  })
  return toJson({
    system: names.system,
    network: names.network,
    unit: 'gwei',
    currentBlockNumber: meta.blockNumber,
    msSinceLastBlock: msSince(meta.blockTimestamp, now),
    baseFeePerGas: gwei(report.nextBaseFee),
    ...(blob ? { blobBaseFeePerGas: gwei(blob.nextBlobBaseFee) } : {}),
    estimatedBaseFees: Array.from({ length: ESTIMATED_BASE_FEE_BLOCKS }, (_, i) => ({
      [`pending+${i + 1}`]: [at(i + 1, 'p99'), at(i + 1, 'p50')],
    })),
  })
}

/** A served chain as GET /chains lists it. */
export type ChainEntry = { chainId: number; system: string; network: string; label: string; arch: 'evm'; features: string[] }

/** GET /chains: every served chain with its names and what it answers. */
export function chainsBody(
  chains: readonly { chainId: number; name: string; blobs: boolean }[],
  names: ReadonlyMap<number, ChainNames>,
): ChainEntry[] {
  return chains.map((c) => {
    const n = names.get(c.chainId)
    if (!n) throw new RangeError(`chain ${c.chainId} has no names`)
    return {
      chainId: c.chainId,
      system: n.system,
      network: n.network,
      label: c.name,
      arch: 'evm',
      features: ['blockprices', 'basefee-estimates', ...(c.blobs ? ['blobs'] : [])],
    }
  })
}
