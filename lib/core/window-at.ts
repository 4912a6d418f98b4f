import type { FeeWindow } from './types'

/**
 * The window as it stood at an earlier `block`: the per-block series cut there, the next base fee (and
 * blob base fee) the base fee the following block then had. The head's extraData, gas limit, L1 fee
 * parameters and timestamp stay the newest read's: a cut window builds a block's fee bodies (a stream
 * pushes every block), it is not served as that block's window. Undefined when `block` is after the
 * head or before the window's oldest block.
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
