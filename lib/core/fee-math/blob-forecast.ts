/**
 * The blob base fee forecast and the blob caps it sizes: the next block's excess blob gas is exact, and every
 * later block's follows the protocol's own rule (EIP-4844 calc_excess_blob_gas, EIP-7918's reserve price) from
 * blob counts replayed from the window's recent history, run by run (docs/estimator.md, "The blob forecast").
 * Pure; excess blob gas is carried as a Number (below 2^53: a billion blobs' worth).
 */
import { blobForkAt, BLOB_BASE_COST, GAS_PER_BLOB, type BlobFork, type BlobSchedule } from '../chain-rules/blob-schedule'
import { blobBaseFeeAt, boundedMemo, maxExcessFor } from './blob-price'

/** How many blocks ahead the forecast goes: head + 1 … head + BLOB_FORECAST_HORIZONS. */
export const BLOB_FORECAST_HORIZONS = 10
/** Below this many blocks of blob history the forecast is not estimated: the protocol bound stands in. */
export const MIN_BLOB_HISTORY = 64
/** The quantiles served, as probabilities (the base fee forecast's). */
export const BLOB_QUANTILES = { p50: 0.5, p90: 0.9, p99: 0.995 } as const

const GAS = Number(GAS_PER_BLOB)

/**
 * The excess blob gas of a block from its parent's (go-ethereum consensus/misc/eip4844/eip4844.go
 * calcExcessBlobGas; EIP-4844, EIP-7918): `fork` is the block's own fork; `parentBaseFee` (wei) only matters
 * where the fork has the reserve price, which holds when BLOB_BASE_COST × base fee > GAS_PER_BLOB × blob base fee.
 */
export function calcExcessBlobGas(fork: BlobFork, parentExcess: bigint, parentBlobGasUsed: bigint, parentBaseFee: bigint): bigint {
  const target = BigInt(fork.params.target) * GAS_PER_BLOB
  if (parentExcess + parentBlobGasUsed < target) return 0n
  const reserve = BLOB_BASE_COST * parentBaseFee
  if (fork.reservePrice && reserve > 0n && reserve > GAS_PER_BLOB * blobBaseFeeAt(parentExcess, fork.params.updateFraction)) {
    return parentExcess + (parentBlobGasUsed * BigInt(fork.params.max - fork.params.target)) / BigInt(fork.params.max)
  }
  return parentExcess + parentBlobGasUsed - target
}

export type BlobForecastInput = {
  /** The next block's excess blob gas: exact from the head's header, else the most the next blob base fee allows. */
  nextExcess: bigint
  /** Blobs per block of the window, oldest first (the history replayed). */
  blobCounts: readonly number[]
  schedule: BlobSchedule
  /** The head's timestamp, unix seconds, and the chain's block interval, ms: block head + k is expected k intervals later. */
  headTimestamp: number
  blockIntervalMs: number
  /** The execution base fee the reserve price is checked against, wei: the next block's. */
  baseFee: bigint
  /**
   * Execution base fee of each block of the history, wei, aligned with `blobCounts`: each run moves `baseFee` by
   * the same blocks' ratios (the reserve price follows the base fee). Absent or misaligned: `baseFee` is held.
   */
  baseFees?: readonly bigint[]
}

export type BlobForecastHorizon = { blocks: number; p50: bigint; p90: bigint; p99: bigint; bound: bigint }

/** Replayed runs: per future block k (index k − 1), every run's excess, and each run's highest fee proxy up to k. */
type Runs = { excess: Float64Array[]; peak: Float64Array[] }

/** The fork of each block head + 1 … head + horizons, by its expected time. */
function forksAhead(input: BlobForecastInput, horizons: number): BlobFork[] {
  const out: BlobFork[] = []
  for (let k = 1; k <= horizons; k++) {
    const at = input.headTimestamp + Math.round((k * Math.max(0, input.blockIntervalMs)) / 1000)
    const fork = blobForkAt(input.schedule, at) ?? blobForkAt(input.schedule, input.headTimestamp)
    if (!fork) throw new RangeError(`blob forecast: no blob fork is active at ${input.headTimestamp}`)
    out.push(fork)
  }
  return out
}

const reserveMemo = boundedMemo<number>(1_024)

/**
 * Per history block i ≥ 1, ln(base fee i ÷ base fee i − 1): a run's base fee path (0 where unknown). The reserve
 * excess of a base fee b·r is the one of b plus fraction × ln r, as the blob base fee is exp(excess ÷ fraction).
 */
function baseFeeLogRatios(input: BlobForecastInput): Float64Array {
  const b = input.baseFees
  const out = new Float64Array(input.blobCounts.length)
  if (!b || b.length !== input.blobCounts.length) return out
  for (let i = 1; i < b.length; i++) if (b[i]! > 0n && b[i - 1]! > 0n) out[i] = Math.log(Number(b[i]!) / Number(b[i - 1]!))
  return out
}

/** The smallest excess whose blob base fee meets the reserve price (below it EIP-7918's branch holds), per update fraction. */
function reserveExcess(fork: BlobFork, baseFee: bigint): number {
  if (!fork.reservePrice || baseFee <= 0n) return 0
  return reserveMemo(`${fork.params.updateFraction}:${baseFee}`, () => reserveExcessOf(fork, baseFee))
}

function reserveExcessOf(fork: BlobFork, baseFee: bigint): number {
  // reserve binds while GAS_PER_BLOB × fee < BLOB_BASE_COST × baseFee, i.e. fee < baseFee / 16: fee ≤ ceil(baseFee / 16) − 1
  const ratio = GAS_PER_BLOB / BLOB_BASE_COST
  const below = (baseFee + ratio - 1n) / ratio - 1n
  return below < 1n ? 0 : Number(maxExcessFor(below, fork.params.updateFraction)) + 1
}

/**
 * Every run of `forks.length − 1` consecutive blocks of the history, replayed from the next block's excess by the
 * protocol's rule: run j uses blob counts j, j + 1, … (demand as it came, bursts kept together). `forks`: those
 * of blocks head + 1 … head + horizons (forksAhead).
 */
function replay(input: BlobForecastInput, forks: BlobFork[]): Runs {
  const horizons = forks.length
  const counts = input.blobCounts
  const steps = horizons - 1
  const runs = Math.max(0, counts.length - steps + 1)
  const excess = Array.from({ length: horizons }, () => new Float64Array(runs))
  const peak = Array.from({ length: horizons }, () => new Float64Array(runs))
  const reserve = forks.map((f) => reserveExcess(f, input.baseFee))
  const logRatios = baseFeeLogRatios(input)
  const start = Number(input.nextExcess)
  for (let j = 0; j < runs; j++) {
    let e = start
    let top = e / Number(forks[0]!.params.updateFraction)
    excess[0]![j] = e
    peak[0]![j] = top
    // ln(base fee of block head + k ÷ the next block's), the run's own base fee path
    let drift = 0
    for (let k = 1; k < horizons; k++) {
      // block head + k + 1 from block head + k, whose blobs are the run's (k − 1)-th count, within its fork's max
      const fork = forks[k]!
      const { target, max } = fork.params
      const used = Math.min(counts[j + k - 1]!, forks[k - 1]!.params.max) * GAS
      const t = target * GAS
      if (k > 1) drift += logRatios[j + k - 1]!
      const bar = reserve[k]! > 0 ? reserve[k]! + drift * Number(fork.params.updateFraction) : 0
      if (e + used < t) e = 0
      else if (fork.reservePrice && e < bar) e += Math.floor((used * (max - target)) / max)
      else e += used - t
      excess[k]![j] = e
      top = Math.max(top, e / Number(fork.params.updateFraction))
      peak[k]![j] = top
    }
  }
  return { excess, peak }
}

/** The q-quantile (nearest rank, rounded up: a quantile never sits below its share) of values sorted ascending. */
function quantileOf(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0
}

/** The protocol's largest blob base fee of blocks head + 1 … head + H: every block from the next one at the most blobs. */
function boundsAhead(input: BlobForecastInput, forks: BlobFork[]): bigint[] {
  const out: bigint[] = []
  let e = input.nextExcess
  for (let k = 1; k <= forks.length; k++) {
    if (k > 1) e = calcExcessBlobGas(forks[k - 1]!, e, BigInt(forks[k - 2]!.params.max) * GAS_PER_BLOB, 0n)
    // with a base fee of 0 the reserve never binds: the plain rule's rise, (max − target) a block, is the larger
    out.push(blobBaseFeeAt(e, forks[k - 1]!.params.updateFraction))
  }
  return out
}

const clamp = (v: bigint, lo: bigint, hi: bigint) => (v < lo ? lo : v > hi ? hi : v)

/**
 * What the forecast's quantiles are read from: per block head + k (index k − 1), every replayed run's excess
 * sorted ascending (absent where the history is short), with the protocol's bound and the fork's update fraction.
 */
export type BlobForecastRuns = { sorted: Float64Array[] | undefined; bounds: bigint[]; fractions: bigint[] }

/** Replays the runs of blobForecast once, for the forecast and for a judge of the whole distribution. */
export function blobForecastRuns(input: BlobForecastInput): BlobForecastRuns {
  const H = BLOB_FORECAST_HORIZONS
  const forks = forksAhead(input, H)
  const runs = input.blobCounts.length >= MIN_BLOB_HISTORY ? replay(input, forks) : undefined
  return {
    sorted: runs?.excess.map((e) => e.sort()),
    bounds: boundsAhead(input, forks),
    fractions: forks.map((f) => f.params.updateFraction),
  }
}

/**
 * The blob base fee forecast for blocks head + 1 … head + BLOB_FORECAST_HORIZONS: k = 1 is the next block's
 * fee, exact; later ones are quantiles of the replayed runs, within [next fee's floor of 1 wei, bound]. With
 * fewer than MIN_BLOB_HISTORY blocks of history every quantile is the bound.
 */
export function blobForecast(
  input: BlobForecastInput,
  runs: BlobForecastRuns = blobForecastRuns(input),
): { horizons: BlobForecastHorizon[]; method: 'window' | 'bound' } {
  const horizons: BlobForecastHorizon[] = []
  for (let k = 1; k <= BLOB_FORECAST_HORIZONS; k++) {
    const bound = runs.bounds[k - 1]!
    const fraction = runs.fractions[k - 1]!
    const sorted = runs.sorted?.[k - 1]
    const at = (q: number): bigint => {
      if (k === 1) return blobBaseFeeAt(input.nextExcess, fraction)
      if (!sorted) return bound
      return clamp(blobBaseFeeAt(BigInt(Math.round(quantileOf(sorted, q))), fraction), 1n, bound)
    }
    const p50 = at(BLOB_QUANTILES.p50)
    const p90 = at(BLOB_QUANTILES.p90)
    const p99 = at(BLOB_QUANTILES.p99)
    // quantiles of one sample are ordered; the max() keeps them so through rounding
    const q90 = p90 > p50 ? p90 : p50
    horizons.push({ blocks: k, p50, p90: q90, p99: p99 > q90 ? p99 : q90, bound })
  }
  return { horizons, method: runs.sorted ? 'window' : 'bound' }
}

/** Fewest replayed runs a cap is sized from: with fewer (a window short for the wait) blobCapFor gives none. */
export const MIN_BLOB_RUNS = 32

/**
 * The blob cap for a wait of `blocks` blocks (head + 1 … head + blocks) held with probability `share`: the
 * share-quantile of each replayed run's highest blob base fee over them, never above the protocol's highest
 * bound over them, never below one full block's rise from the next blob base fee (a market that never moved in
 * the window can still move). null where the window is too short to size it: the caller keeps the bound.
 */
export function blobCapFor(input: BlobForecastInput, blocks: number, share: number): bigint | null {
  const H = Math.max(1, blocks)
  const runs = input.blobCounts.length - H + 2
  if (input.blobCounts.length < MIN_BLOB_HISTORY || runs < MIN_BLOB_RUNS) return null
  const forks = forksAhead(input, H)
  const bounds = boundsAhead(input, forks)
  const bound = bounds.reduce((a, b) => (b > a ? b : a))
  const oneBlock = bounds[Math.min(1, H - 1)]!
  const floor = oneBlock < bound ? oneBlock : bound
  const { peak } = replay(input, forks)
  const fraction = forks[H - 1]!.params.updateFraction
  const top = quantileOf(peak[H - 1]!.sort(), share)
  const fee = blobBaseFeeAt(BigInt(Math.ceil(top * Number(fraction))), fraction)
  return clamp(fee, floor, bound)
}
