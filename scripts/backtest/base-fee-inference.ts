/**
 * The execution base fee of each block of a blob window that has none, as far as the blob data tells it
 * (EIP-7918's reserve price needs it): `inferBaseFees(window, schedule)` gives one estimate per block, wei,
 * 0 until the first block whose excess tells anything.
 *
 * The evidence is which branch each excess took: the reserve branch says the parent's base fee was above
 * 16 × its blob base fee (BLOB_BASE_COST ÷ GAS_PER_BLOB), the plain one (where the two differ) at most that.
 * Between blocks the base fee moves by at most 12.5% either way (EIP-1559's BASE_FEE_MAX_CHANGE_DENOMINATOR
 * of 8). A grid filter over ln(base fee) carries the probability of each value: each block it spreads by a
 * step (STEP_MODELS), then keeps only the side the block's branch allows. The estimate is the median of
 * what is left, moved onto the block's own side where the grid's 1% bins put it across (then it sits on
 * the edge), and until the evidence has bounded the base fee from both sides, the bound itself.
 *
 * The step model is not assumed: a filter runs for each of STEP_MODELS, and each block's estimate comes from
 * the one under which the branches seen so far were likeliest (the product of each branch's predicted
 * probability). Everything at block i uses only the branches of blocks ≤ i, as the service at a head knows
 * the base fees up to the next block.
 */
import { blobForkAt, GAS_PER_BLOB, type BlobSchedule } from '../../lib/core/chain-rules/blob-schedule'
import { blobBaseFeeAt } from '../../lib/core/fee-math/blob-price'
import { calcExcessBlobGas } from '../../lib/core/fee-math/blob-forecast'
import type { BlobWindow } from './blob-csv'

/**
 * The step models tried: a uniform step of half-width `narrow` (a fraction of the base fee), mixed with a
 * share `wide` of steps up to EIP-1559's whole 12.5% (a heavy-tailed walk: mostly small moves, now and
 * then a full block's). Every narrow width with every wide share.
 */
const STEP_MODELS = [0.01, 0.02, 0.03, 0.05].flatMap((narrow) => [0, 0.05, 0.2].map((wide) => ({ narrow, wide })))

/** The grid: ln(wei) from 1 wei to 10^13 wei (10,000 gwei) in steps of 1%. */
const LN_LO = 0
const BIN = 0.01
const BINS = Math.ceil((Math.log(1e13) - LN_LO) / BIN)
/** Probability below this is dropped, which keeps each block's work to the bins that matter. */
const NEGLIGIBLE = 1e-15

/** One filter: the probability of each bin, the bins that hold any, and the log-likelihood of the branches so far. */
type Filter = {
  p: Float64Array
  q: Float64Array
  sums: Float64Array
  from: number
  to: number
  down: number
  up: number
  kernels: Kernel[]
  ll: number
}

type Kernel = { down: number; up: number; weight: number }
const kernelOf = (width: number, weight: number): Kernel => ({
  down: Math.max(1, Math.round(-Math.log(1 - width) / BIN)),
  up: Math.max(1, Math.round(Math.log(1 + width) / BIN)),
  weight,
})

function newFilter(narrow: number, wide: number): Filter {
  const kernels = [kernelOf(narrow, 1 - wide), ...(wide > 0 ? [kernelOf(0.125, wide)] : [])]
  return {
    p: new Float64Array(BINS).fill(1 / BINS),
    q: new Float64Array(BINS),
    sums: new Float64Array(BINS + 1),
    from: 0,
    to: BINS,
    kernels,
    down: Math.max(...kernels.map((k) => k.down)),
    up: Math.max(...kernels.map((k) => k.up)),
    ll: 0,
  }
}

/** One block's move: every bin's probability spread over the bins a step can reach, evenly within each kernel. */
function spread(f: Filter): void {
  // a step moves a bin down by at most `down` bins and up by at most `up`
  const from = Math.max(0, f.from - f.down)
  const to = Math.min(BINS, f.to + f.up)
  f.sums[from] = 0
  for (let j = from; j < to; j++) f.sums[j + 1] = f.sums[j]! + (j >= f.from && j < f.to ? f.p[j]! : 0)
  for (let j = from; j < to; j++) {
    let v = 0
    for (const k of f.kernels) {
      // bin j is reached from bins j − up … j + down
      const a = Math.max(from, j - k.up)
      const b = Math.min(to, j + k.down + 1)
      v += (k.weight * (f.sums[b]! - f.sums[a]!)) / (k.down + k.up + 1)
    }
    f.q[j] = v
  }
  ;[f.p, f.q] = [f.q, f.p]
  f.from = from
  f.to = to
}

/** Keeps the bins below `cut` (`below`) or from it on, adding the log of the kept share; a branch it calls impossible is ignored. */
function observe(f: Filter, cut: number, below: boolean): void {
  let kept = 0
  let total = 0
  for (let j = f.from; j < f.to; j++) {
    total += f.p[j]!
    if (below === j < cut) kept += f.p[j]!
  }
  // the branch's predicted probability: a filter that called it impossible scores no better than a tiny share
  f.ll += Math.log(Math.max(total > 0 ? kept / total : 0, NEGLIGIBLE))
  if (kept <= 0) return
  let from = f.to
  let to = f.from
  for (let j = f.from; j < f.to; j++) {
    const v = below === j < cut ? f.p[j]! / kept : 0
    f.p[j] = v < NEGLIGIBLE ? 0 : v
    if (f.p[j]! > 0) {
      if (j < from) from = j
      to = j + 1
    }
  }
  f.from = from
  f.to = to
}

function medianOf(f: Filter): number {
  let total = 0
  for (let j = f.from; j < f.to; j++) total += f.p[j]!
  let c = 0
  for (let j = f.from; j < f.to; j++) if ((c += f.p[j]!) >= total / 2) return Math.exp(LN_LO + (j + 0.5) * BIN)
  return Math.exp(LN_LO + (f.to - 0.5) * BIN)
}

/** Per block, the estimated execution base fee, wei (see the module comment); 0 before any evidence. */
export function inferBaseFees(w: BlobWindow, schedule: BlobSchedule): bigint[] {
  const n = w.numbers.length
  const out: bigint[] = new Array<bigint>(n).fill(0n)
  const filters = STEP_MODELS.map((m) => newFilter(m.narrow, m.wide))
  let seen = false
  // until both sides have been seen the filter's median is the prior's (1 wei … 10^13 wei) as much as the
  // evidence's: the estimate is then the bound itself, moved only as far as each block demands
  let above = false
  let below = false
  let bound = 0n
  for (let i = 0; i < n; i++) {
    // a flat prior stays flat: nothing moves until the first branch tells something
    if (seen) for (const f of filters) spread(f)
    const child = i + 1 < n ? blobForkAt(schedule, w.timestamps[i + 1]!) : undefined
    // the side of 16 × the parent's blob base fee (as the child's rule prices it) this block's base fee is on
    let side: { edge: bigint; above: boolean } | undefined
    if (child?.reservePrice) {
      const used = BigInt(w.blobCounts[i]!) * GAS_PER_BLOB
      const plain = calcExcessBlobGas({ ...child, reservePrice: false }, w.excess[i]!, used, 0n)
      const reserve = calcExcessBlobGas({ ...child, reservePrice: true }, w.excess[i]!, used, 1n << 120n)
      const edge = 16n * blobBaseFeeAt(w.excess[i]!, child.params.updateFraction)
      if (plain !== reserve && plain === w.excess[i + 1]) side = { edge, above: false }
      else if (plain !== reserve && reserve === w.excess[i + 1]) side = { edge, above: true }
    }
    if (side) {
      // bins wholly above the edge start at `cut`; the edge's own bin goes with "at most"
      const cut = Math.min(BINS, Math.max(0, Math.floor((Math.log(Number(side.edge)) - LN_LO) / BIN) + 1))
      for (const f of filters) observe(f, cut, !side.above)
      seen = true
      if (side.above) {
        above = true
        if (bound <= side.edge) bound = side.edge + 1n
      } else {
        below = true
        if (bound > side.edge) bound = side.edge
      }
    }
    if (!seen) continue
    if (!above || !below) {
      out[i] = bound
      continue
    }
    const best = filters.reduce((a, b) => (b.ll > a.ll ? b : a))
    let x = BigInt(Math.round(medianOf(best)))
    // the grid's 1% bins can put a median across the edge it was cut at: the block's own side wins
    if (side && side.above && x <= side.edge) x = side.edge + 1n
    if (side && !side.above && x > side.edge) x = side.edge
    out[i] = x
  }
  return out
}
