import type { FeeWindow } from './types'

/**
 * The window as it stood at an earlier `block` (its series cut there), for a stream's per-block bodies, never served as
 * that block's window: the head's extraData, gas limit, L1 fee parameters and timestamp stay the newest read's.
 * Undefined when `block` is outside the window.
 */
export function windowAt(window: FeeWindow, block: number): FeeWindow | undefined {
  const cut = window.headNumber - block
  if (cut === 0) return window
  if (cut < 0 || block < window.oldestBlock) return undefined
  const keep = window.baseFeePerGas.length - cut
  const blobs = window.baseFeePerBlobGas
  // the head's blob header fields and transaction count are the head's alone
  const { headExcessBlobGas: _excess, headBlobGasUsed: _used, headTransactionCount: _count, ...rest } = window
  return {
    ...rest,
    headNumber: block,
    baseFeePerGas: window.baseFeePerGas.slice(0, keep),
    nextBaseFeePerGas: window.baseFeePerGas[keep]!,
    gasUsedRatio: window.gasUsedRatio.slice(0, keep),
    reward: window.reward.slice(0, keep),
    ...(blobs && blobs.length === window.baseFeePerGas.length
      ? {
          baseFeePerBlobGas: blobs.slice(0, keep),
          nextBaseFeePerBlobGas: blobs[keep]!,
          ...(window.blobGasUsedRatio ? { blobGasUsedRatio: window.blobGasUsedRatio.slice(0, keep) } : {}),
        }
      : {}),
  }
}
