import type { SuggestedGasFees, TransactionCostBody } from '@/lib/core/contract/schemas'
import { parseGwei } from '@/lib/core/units'

/**
 * Common actions, their gas and unsigned size (bytes, what an L2's L1 data fee is charged on): a transfer's and an
 * ERC-20 transfer's as viem serializes them; a swap's typical (a one-pool router swap: about 400 bytes of calldata).
 */
export const COMMON_ACTIONS = [
  { key: 'transfer', title: 'Transfer', hint: '21,000 gas', gas: 21_000n, txBytes: 51 },
  { key: 'erc20', title: 'Token transfer (ERC-20)', hint: '~65,000 gas', gas: 65_000n, txBytes: 113 },
  { key: 'swap', title: 'Swap', hint: '~150,000 gas', gas: 150_000n, txBytes: 420 },
] as const

export type ActionKey = (typeof COMMON_ACTIONS)[number]['key']

/** Whether a transactionCost answer carries a fee beside gas (an L2's L1 data fee or operator fee). */
export function chargesBeyondGas(cost: TransactionCostBody): boolean {
  return (cost.l1DataFee !== null && cost.l1DataFee !== '0') || (cost.operatorFee !== null && cost.operatorFee !== '0')
}

/**
 * Whether a transactionCost answer is more than gas × the suggested fees: a fee beside gas (chargesBeyondGas), or a
 * tip floor of the transaction's own (Linea prices its data into the tip, per gas and size).
 */
export function wholeCostDiffers(cost: TransactionCostBody): boolean {
  return chargesBeyondGas(cost) || (cost.priorityFeeFloor !== null && cost.priorityFeeFloor !== '0')
}

export type Urgency = 'low' | 'medium' | 'high'

/**
 * What an action of `gas` gas costs at one level, in wei of the native token (10^-decimals of it).
 * likely: what it pays if included at the next base fee, gas × min(maxFee, estimatedBaseFee + priority fee)
 * (EIP-1559's effective gas price); max: the most it can pay, gas × suggestedMaxFeePerGas.
 */
export function actionCost(gas: bigint, fees: SuggestedGasFees, level: Urgency): { likelyWei: bigint; maxWei: bigint } {
  const maxFee = parseGwei(fees[level].suggestedMaxFeePerGas)
  const effective = parseGwei(fees.estimatedBaseFee) + parseGwei(fees[level].suggestedMaxPriorityFeePerGas)
  return { likelyWei: gas * (effective < maxFee ? effective : maxFee), maxWei: gas * maxFee }
}

/** An amount in the token's smallest unit as an exact decimal string of the token: no exponent, no trailing zeros. */
export function formatUnitsExact(amount: bigint, decimals: number): string {
  if (amount < 0n) throw new RangeError(`formatUnitsExact: negative amount ${amount}`)
  const base = 10n ** BigInt(decimals)
  const whole = amount / base
  const fraction = (amount % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole.toString()
}

/**
 * An amount in the token's smallest unit, shortened for reading: rounded to `significant` digits
 * (half up), thousands separators, never an exponent ("0.0000315", "1,235").
 */
export function formatUnitsShort(amount: bigint, decimals: number, significant = 3): string {
  const digits = amount.toString().length
  let rounded = amount
  if (digits > significant) {
    const factor = 10n ** BigInt(digits - significant)
    rounded = ((amount + factor / 2n) / factor) * factor
  }
  const exact = formatUnitsExact(rounded, decimals)
  const [whole = '0', fraction] = exact.split('.')
  const grouped = BigInt(whole).toLocaleString('en-US')
  return fraction ? `${grouped}.${fraction}` : grouped
}
