import { InvalidChainIdError } from '../core/contract/errors'

/**
 * Parses the {chainId} path segment: a canonical positive decimal integer (no sign, no leading zero,
 * no exponent, no hex) that fits in a JS safe integer.
 */
export function parseChainId(raw: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) throw new InvalidChainIdError(raw)
  const id = Number(raw)
  if (!Number.isSafeInteger(id)) throw new InvalidChainIdError(raw)
  return id
}
