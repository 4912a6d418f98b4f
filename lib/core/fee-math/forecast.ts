/**
 * The base-fee forecast (quantiles and bound per horizon) and the max fees' caps: an AR(1) on the window's log
 * base-fee steps, within the chain's bounds (docs/estimator.md, "The base-fee forecast"). Pure.
 */
import type { ChainFeePolicy } from '../chain-rules/chain-policy'
import { mulDivCeil, PPM } from '../units'

/** The most any fee field holds (2^256 − 1 wei): no quantile or cap is served above it. */
const MAX_FEE_WEI = (1n << 256n) - 1n

/** What the forecast needs of a chain's policy: its bounds, and whether they are its rule. */
export type BoundsPolicy = Pick<
  ChainFeePolicy,
  'maxBaseFeeRisePpm' | 'maxBaseFeeFallPpm' | 'enforceBaseFeeBounds' | 'liveParamsRead' | 'minBaseFeeWei' | 'rules'
>

/** Whether the policy's bounds are the chain's rule: then `bound` is served and no quantile or cap passes it. */
const boundIsRule = (p: BoundsPolicy) => p.enforceBaseFeeBounds || p.liveParamsRead === true

/** How many blocks ahead the forecast goes: blocks head + 1 … head + FORECAST_HORIZONS. */
export const FORECAST_HORIZONS = 10
/** Below this many base-fee steps in the window the model is not estimated: the bound stands in. */
export const MIN_FORECAST_STEPS = 64
/** The quantiles served, as probabilities. */
export const FORECAST_QUANTILES = { p50: 0.5, p90: 0.9, p99: 0.995 } as const

export type ForecastHorizon = {
  /** k: the base fee of block head + k. */
  blocks: number
  p50: bigint
  p90: bigint
  p99: bigint
  /** The protocol's largest base fee of block head + k (k − 1 rises from the next base fee; k from the head's on Monad); null: none enforced. */
  bound: bigint | null
}

export type BaseFeeForecast = {
  /** The next block's base fee (head + 1), known exactly. */
  estimatedBaseFee: bigint
  horizons: ForecastHorizon[]
  /** 'window': the model estimated on the window; 'bound': the window is too short (or the fee is 0), the bound stands in. */
  method: 'window' | 'bound'
}

/** The model fitted to one window: what every quantile and cap is computed from. */
export type ForecastModel = {
  next: bigint
  /** k − 1 steps of the largest rise (or fall) from the next base fee, k = 1 … FORECAST_HORIZONS + … (index k − 1). */
  upper: (k: number) => bigint
  lower: (k: number) => bigint
  /** The lowest base fee the chain allows (an OP-stack Jovian block's minimum), wei; 0 where none is known. */
  min: bigint
  /** The next base fee raised by one full block at the policy's rise, whole (no 100% clamp), wei. */
  fullBlock: bigint
  /** Whether `upper` is the chain's enforced rule (else it is only assumed: bound null). */
  enforced: boolean
  /** Undefined when the window is too short or a base fee is 0: quantiles take the bound. */
  fit?: Fit
}

type Fit = {
  /** Expected log rise from the next block to head + k, per k (index k − 1; 0 for k = 1). */
  mean: number[]
  /** Per k ≥ 2 (index k − 1), the window's residuals (log), in no order (quantile selects). */
  residuals: Float64Array[]
  /** Per horizon H ≥ 1 (index H − 1), the residuals of the highest log rise over head + 1 … head + H, in no order. */
  maxResiduals: Float64Array[]
}

/** Moves the k-th smallest value of `a` to a[k] (quickselect, in place): a quantile needs two order statistics, not a sort. */
function select(a: Float64Array, k: number): void {
  let lo = 0
  let hi = a.length - 1
  while (hi > lo) {
    const mid = (lo + hi) >> 1
    if (a[mid]! < a[lo]!) swap(a, mid, lo)
    if (a[hi]! < a[lo]!) swap(a, hi, lo)
    if (a[hi]! < a[mid]!) swap(a, hi, mid)
    const pivot = a[mid]!
    let i = lo
    let j = hi
    while (i <= j) {
      while (a[i]! < pivot) i++
      while (a[j]! > pivot) j--
      if (i <= j) {
        swap(a, i, j)
        i++
        j--
      }
    }
    if (k <= j) hi = j
    else if (k >= i) lo = i
    else return
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]!
  a[i] = a[j]!
  a[j] = t
}

/** Linear-interpolated quantile of a residual array (q in [0, 1]); reorders the array, never changes its values. */
function quantile(values: Float64Array, q: number): number {
  const n = values.length
  if (n === 0) return 0
  const pos = q * (n - 1)
  const lo = Math.floor(pos)
  select(values, lo)
  const at = values[lo]!
  if (lo + 1 >= n || pos === lo) return at
  // the next order statistic: the smallest of those after the k-th
  let next = Number.POSITIVE_INFINITY
  for (let i = lo + 1; i < n; i++) if (values[i]! < next) next = values[i]!
  return at + (next - at) * (pos - lo)
}

/** Rises (ppm) applied k − 1 times from `next`, rounding up (a bound never rounds below the rule). */
function grown(next: bigint, ppm: bigint, steps: number, up: boolean): bigint {
  let v = next
  for (let i = 0; i < steps; i++) {
    v = up ? mulDivCeil(v, PPM + ppm, PPM) : (v * (PPM - ppm)) / PPM
    // never past what a fee field holds (a chain whose measured interval rounds to 0 ms has thousands of rises)
    if (v > MAX_FEE_WEI) return MAX_FEE_WEI
  }
  return v
}

/**
 * Fits the forecast model to a window's base fees (oldest first) and the next one, within the policy's bounds.
 * `horizons`: the furthest block any quantile or cap is asked for.
 */
export function fitForecast(baseFees: readonly bigint[], next: bigint, policy: BoundsPolicy, horizons = FORECAST_HORIZONS): ForecastModel {
  const rise = policy.maxBaseFeeRisePpm > PPM ? PPM : policy.maxBaseFeeRisePpm
  const fall = policy.maxBaseFeeFallPpm > PPM ? PPM : policy.maxBaseFeeFallPpm
  const min = policy.minBaseFeeWei ?? 0n
  // a chain's lowest base fee bounds both ways (a node that reports less than it is not believed below it)
  const upper = (k: number) => {
    const v = grown(next, rise, k - 1, true)
    return v < min ? min : v
  }
  const lower = (k: number) => {
    const v = grown(next, fall, k - 1, false)
    return v < min ? min : v
  }
  const full = mulDivCeil(next, PPM + policy.maxBaseFeeRisePpm, PPM)
  const fullBlock = full > MAX_FEE_WEI ? MAX_FEE_WEI : full
  const model: ForecastModel = { next, upper, lower, min, fullBlock, enforced: boundIsRule(policy) }
  const series = [...baseFees, next]
  if (series.length - 1 < MIN_FORECAST_STEPS || series.some((b) => b <= 0n)) return model
  // log steps x_i = ln(b_{i+1} / b_i); exact enough in float: base fees carry ≤ 16 significant digits that matter
  const logs = series.map((b) => Math.log(Number(b)))
  const x = logs.slice(1).map((l, i) => l - logs[i]!)
  const n = x.length
  // AR(1) by least squares over consecutive pairs
  let sx = 0
  for (const v of x) sx += v
  const mu = sx / n
  let num = 0
  let den = 0
  for (let i = 0; i + 1 < n; i++) {
    num += (x[i]! - mu) * (x[i + 1]! - mu)
    den += (x[i]! - mu) ** 2
  }
  const phi = den > 0 ? Math.max(0, Math.min(0.98, num / den)) : 0
  /** Expected log rise from b_{i+1} to b_{i+k} given step x_i. */
  const meanPath = (xi: number, k: number) => {
    let s = 0
    let p = phi
    for (let t = 1; t < k; t++) {
      s += mu + p * (xi - mu)
      p *= phi
    }
    return s
  }
  // per horizon k, the window's residuals (k ≥ 2) and the residuals of the highest rise over 1 … k
  const counts = Array.from({ length: horizons }, (_, k) => Math.max(0, n - k))
  const residuals = counts.map((c, k) => new Float64Array(k === 0 ? 0 : c))
  const maxResiduals = counts.map((c) => new Float64Array(c))
  // a prediction made at block i (its step x_i known, i.e. b_{i+1} known) of b_{i+k}: logs[i + k];
  // its mean is Σ_{t=1}^{k−1} (μ + φ^t (x_i − μ)), built up one k at a time
  for (let i = 0; i < n; i++) {
    const d = x[i]! - mu
    let m = 0
    let p = 1
    let top = Number.NEGATIVE_INFINITY
    let topMean = Number.NEGATIVE_INFINITY
    for (let k = 1; k <= horizons && i + k <= n; k++) {
      if (k >= 2) {
        p *= phi
        m += mu + p * d
      }
      const actual = logs[i + k]! - logs[i + 1]!
      if (k >= 2) residuals[k - 1]![i] = actual - m
      if (actual > top) top = actual
      if (m > topMean) topMean = m
      maxResiduals[k - 1]![i] = top - topMean
    }
  }
  const mean = Array.from({ length: horizons }, (_, k) => meanPath(x[n - 1]!, k + 1))
  model.fit = { mean, residuals, maxResiduals }
  return model
}

const clampBig = (v: bigint, lo: bigint, hi: bigint | null) => (v < lo ? lo : hi !== null && v > hi ? hi : v)

/** next × exp(log), rounded up; `beyond` when the factor overflows a float (never the next base fee: no rise). */
const scaled = (next: bigint, log: number, beyond: bigint): bigint => {
  const factor = Math.exp(log)
  // 1e9 fixed point keeps 9 digits of the factor
  const fixed = factor * 1e9
  if (!Number.isFinite(fixed)) return beyond > MAX_FEE_WEI ? MAX_FEE_WEI : beyond
  const v = mulDivCeil(next, BigInt(Math.round(fixed)), 1_000_000_000n)
  return v > MAX_FEE_WEI ? MAX_FEE_WEI : v
}

/** The q-quantile of the base fee of block head + k (k ≥ 1). */
export function baseFeeQuantile(model: ForecastModel, k: number, q: number): bigint {
  if (k <= 1) return model.next
  const hi = model.upper(k)
  const lo = model.enforced ? model.lower(k) : model.min
  if (!model.fit) return hi
  const r = model.fit.residuals[k - 1]
  if (!r || r.length === 0) return hi
  return clampBig(scaled(model.next, model.fit.mean[k - 1]! + quantile(r, q), hi), lo, model.enforced ? hi : null)
}

/**
 * The base fee that every block head + 1 … head + H stays at or under with probability q: the cap a max fee
 * needs for a promise over H blocks.
 */
export function baseFeeCap(model: ForecastModel, horizon: number, q: number): bigint {
  const hi = model.upper(horizon)
  if (horizon <= 1) return model.next
  const fit = model.fit
  const r = fit?.maxResiduals[horizon - 1]
  if (!fit || !r || r.length === 0) return hi
  let topMean = Number.NEGATIVE_INFINITY
  for (let k = 1; k <= horizon; k++) topMean = Math.max(topMean, fit.mean[k - 1]!)
  let cap = scaled(model.next, topMean + quantile(r, q), hi)
  // covering every block with probability q covers each one with at least q: never under a single block's quantile
  for (let k = 2; k <= horizon; k++) {
    const single = baseFeeQuantile(model, k, q)
    if (single > cap) cap = single
  }
  return clampBig(cap, model.next, model.enforced ? hi : null)
}

/**
 * The served forecast: p50 ≤ p90 ≤ p99 ≤ bound at every horizon, k = 1 exact; on a chain whose node repeats the head's
 * base fee as the next (Monad: `nextBaseFeeRepeatsHead`) the head is the last one known and block head + k is k steps on.
 */
export function forecastBaseFee(baseFees: readonly bigint[], next: bigint, policy: BoundsPolicy): BaseFeeForecast {
  const repeats = policy.rules?.nextBaseFeeRepeatsHead === true && baseFees.length > 1 && baseFees.at(-1) === next
  const model = repeats
    ? fitForecast(baseFees.slice(0, -1), baseFees.at(-1)!, policy, FORECAST_HORIZONS + 1)
    : fitForecast(baseFees, next, policy)
  const step = repeats ? 1 : 0
  const horizons: ForecastHorizon[] = []
  for (let k = 1; k <= FORECAST_HORIZONS; k++) {
    const bound = model.enforced ? model.upper(k + step) : null
    const p50 = baseFeeQuantile(model, k + step, FORECAST_QUANTILES.p50)
    let p90 = baseFeeQuantile(model, k + step, FORECAST_QUANTILES.p90)
    let p99 = baseFeeQuantile(model, k + step, FORECAST_QUANTILES.p99)
    if (p90 < p50) p90 = p50
    if (p99 < p90) p99 = p90
    horizons.push({ blocks: k, p50, p90, p99, bound })
  }
  return { estimatedBaseFee: next, horizons, method: model.fit ? 'window' : 'bound' }
}
