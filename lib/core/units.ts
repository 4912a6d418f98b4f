/** Wei per gwei (10^9). */
export const WEI_PER_GWEI = 1_000_000_000n

/** Parts per million: the unit of the base-fee step bounds (`*Ppm` fields); 1 = 100%. */
export const PPM = 1_000_000n

/**
 * Formats an amount in wei as a decimal gwei string: exact, at most 9 fractional digits, no exponent, no
 * trailing zeros, "0" for zero.
 * @param wei amount in wei (must be ≥ 0)
 */
export function formatGwei(wei: bigint): string {
  if (wei < 0n) throw new RangeError(`formatGwei: negative amount ${wei} wei`)
  const whole = wei / WEI_PER_GWEI
  const fraction = wei % WEI_PER_GWEI
  if (fraction === 0n) return whole.toString()
  const digits = fraction.toString().padStart(9, '0').replace(/0+$/, '')
  return `${whole}.${digits}`
}

const GWEI_PATTERN = /^(0|[1-9]\d*)(?:\.(\d{1,9}))?$/

/**
 * Parses a decimal gwei string (as produced by {@link formatGwei}) back to wei.
 * @returns amount in wei
 */
export function parseGwei(gwei: string): bigint {
  const [, whole, decimals = ''] = GWEI_PATTERN.exec(gwei) ?? []
  if (whole === undefined) throw new RangeError(`parseGwei: '${gwei}' is not a decimal gwei amount`)
  const fraction = decimals.padEnd(9, '0')
  return BigInt(whole) * WEI_PER_GWEI + BigInt(fraction)
}

/** Multiplies an amount in wei by num/den, rounding up (a fee cap must never round below its bound). */
export function mulDivCeil(wei: bigint, num: bigint, den: bigint): bigint {
  return (wei * num + den - 1n) / den
}

/**
 * A flashblocks wait in whole pieces at `cadenceMs`: the service's waits are whole pieces rounded to the millisecond
 * (fee-math/flashblocks pieceWaits), so rounding takes them back at any cadence (222.2 ms as well as 200).
 */
export function waitInPieces(waitMs: number, cadenceMs: number): number {
  return Math.round(waitMs / cadenceMs)
}
