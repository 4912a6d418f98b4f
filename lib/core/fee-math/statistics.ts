/**
 * Nearest-rank percentile: the smallest value such that at least p% of the values are ≤ it,
 * i.e. sorted[ceil(p/100 · n) − 1] (p = 0 gives the minimum).
 * @param values amounts (any unit); must not be empty
 * @param p percentile in [0, 100]
 */
export function percentileNearestRank(values: readonly bigint[], p: number): bigint {
  if (values.length === 0) throw new RangeError('percentileNearestRank: no values')
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentileNearestRank: p=${p} is outside [0, 100]`)
  const sorted = sortAscending(values)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  const value = sorted[rank - 1]
  if (value === undefined) throw new RangeError(`percentileNearestRank: rank ${rank} of ${sorted.length} values`)
  return value
}

/** Fraction of `values` that are ≤ `x` (the percentile rank of x), in [0, 1]. */
export function percentileRank(values: readonly bigint[], x: bigint): number {
  if (values.length === 0) throw new RangeError('percentileRank: no values')
  let atOrBelow = 0
  for (const v of values) if (v <= x) atOrBelow++
  return atOrBelow / values.length
}

/**
 * Mid-rank of `x` among `values`, in [0, 1]: the share of values below x plus half the share equal
 * to it (ties split evenly, so a value equal to every value ranks 0.5).
 */
export function midRank(values: readonly bigint[], x: bigint): number {
  if (values.length === 0) throw new RangeError('midRank: no values')
  let below = 0
  let equal = 0
  for (const v of values) {
    if (v < x) below++
    else if (v === x) equal++
  }
  return (below + equal / 2) / values.length
}

/** Lower median (nearest-rank 50th percentile) of a non-empty list. */
export function median(values: readonly bigint[]): bigint {
  return percentileNearestRank(values, 50)
}

/** [min, max] of a non-empty list. */
export function range(values: readonly bigint[]): [bigint, bigint] {
  const [first] = values
  if (first === undefined) throw new RangeError('range: no values')
  let min = first
  let max = first
  for (const v of values) {
    if (v < min) min = v
    if (v > max) max = v
  }
  return [min, max]
}

/** A sorted copy (ascending). bigint needs an explicit comparator. */
export function sortAscending(values: readonly bigint[]): bigint[] {
  return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

export function maxOf(a: bigint, b: bigint): bigint {
  return a > b ? a : b
}
