/** The blob base fee of an excess blob gas, and back (EIP-4844). Integer wei. Pure. */
import { MIN_BASE_FEE_PER_BLOB_GAS } from '../chain-rules/blob-schedule'

/** EIP-4844's fake_exponential, exactly as the EIP and go-ethereum (consensus/misc/eip4844 fakeExponential) compute it. */
export function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let output = 0n
  let accum = factor * denominator
  for (let i = 1n; accum > 0n; i++) {
    output += accum
    accum = (accum * numerator) / (denominator * i)
  }
  return output / denominator
}

/** The blob base fee of a block with this excess blob gas under an update fraction, wei (EIP-4844 get_base_fee_per_blob_gas). */
export const blobBaseFeeAt = (excessBlobGas: bigint, updateFraction: bigint): bigint =>
  fakeExponential(MIN_BASE_FEE_PER_BLOB_GAS, excessBlobGas, updateFraction)

/** The largest excess blob gas whose blob base fee is at most `fee` (wei, ≥ 1): fees computed from it bound the true ones. */
export function maxExcessFor(fee: bigint, updateFraction: bigint): bigint {
  if (fee < MIN_BASE_FEE_PER_BLOB_GAS) throw new RangeError(`maxExcessFor: a blob base fee of ${fee} wei is below the minimum`)
  return excessMemo(`${fee}:${updateFraction}`, () => searchExcess(fee, updateFraction))
}

/**
 * A cache of a pure computation by key, cleared whole once it holds `limit` entries: blob fees repeat block
 * after block, and each answer costs a search of some 30 fake_exponential calls.
 */
export function boundedMemo<V>(limit: number): (key: string, compute: () => V) => V {
  const memo = new Map<string, V>()
  return (key, compute) => {
    const known = memo.get(key)
    if (known !== undefined) return known
    if (memo.size >= limit) memo.clear()
    const found = compute()
    memo.set(key, found)
    return found
  }
}

const excessMemo = boundedMemo<bigint>(4_096)

function searchExcess(fee: bigint, updateFraction: bigint): bigint {
  let lo = 0n // blobBaseFeeAt(0) = MIN_BASE_FEE_PER_BLOB_GAS ≤ fee
  let hi = updateFraction
  while (blobBaseFeeAt(hi, updateFraction) <= fee) hi *= 2n
  // blobBaseFeeAt(lo) ≤ fee < blobBaseFeeAt(hi)
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (blobBaseFeeAt(mid, updateFraction) <= fee) lo = mid
    else hi = mid
  }
  return lo
}
