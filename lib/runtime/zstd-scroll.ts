import 'server-only'
import { createRequire } from 'node:module'
import { placeholderSigned } from '../core/fee-math/placeholder-signed'
import { processSingleton } from './process-singleton'

/**
 * Scroll's compressed size (Galileo's cs): `min(len(zstd(bytes)), len(bytes))` with da-codec's encoder settings
 * (scroll-tech/da-codec libzstd/encoder-standard/src/lib.rs init_zstd_encoder, used by scroll-tech/reth
 * crates/scroll/alloy/evm/src/tx/compression.rs compute_compressed_size), through the optional addon zstd-napi: Node's
 * zlib cannot turn literal compression off. Without the addon every function answers null (use the upper bound).
 */

/** The part of zstd-napi's binding.d.ts used here, written out: the package is optional, so tsc may not find it. */
interface ZstdBinding {
  CCtx: new () => ZstdCCtx
  compressBound(size: number): number
}
interface ZstdCCtx {
  setParameter(param: number, value: number): void
  compress2(dst: Uint8Array, src: Uint8Array): number
}

/** ZSTD_cParameter ids and values of zstd.h 1.5.7 (format and literalCompressionMode are its experimental ones). */
const DA_CODEC_PARAMETERS: readonly (readonly [param: number, value: number])[] = [
  [100, 0], // ZSTD_c_compressionLevel: 0, the default (3), as zstd-rs Encoder::new(_, 0)
  [1002, 2], // ZSTD_c_literalCompressionMode = ZSTD_ps_disable: literals stay raw bytes
  [101, 22], // ZSTD_c_windowLog = CL_WINDOW_LIMIT
  [130, 124 * 1024], // ZSTD_c_targetCBlockSize = N_BLOCK_SIZE_TARGET
  [10, 1], // ZSTD_c_format = ZSTD_f_zstd1_magicless (include_magicbytes(false))
  [201, 0], // ZSTD_c_checksumFlag (include_checksum(false))
  [202, 0], // ZSTD_c_dictIDFlag (include_dictid(false))
  [200, 1], // ZSTD_c_contentSizeFlag (include_contentsize(true))
]

/** The oldest Node.js the addon is loaded on: the service's own (package.json engines). */
const MIN_NODE_MAJOR = 24

interface Compressor {
  binding: ZstdBinding
  cctx: ZstdCCtx
}

/**
 * The addon with one context set up as da-codec's encoder, or null when it cannot load; tried once per process.
 * ZSTD_compress2 keeps the parameters between calls and pledges the input's length (set_pledged_src_size).
 */
function compressor(): Compressor | null {
  return processSingleton('zstd-scroll', () => {
    // the addon is built against Node 24's headers (scripts/ensure-node.sh); an older Node that loads it can
    // crash the process (a segfault seen on Node 20), which no catch stops: there the bound is answered instead
    if (Number(process.versions.node.split('.')[0]) < MIN_NODE_MAJOR) return null
    try {
      const binding = createRequire(import.meta.url)('zstd-napi/binding') as ZstdBinding
      const cctx = new binding.CCtx()
      for (const [param, value] of DA_CODEC_PARAMETERS) cctx.setParameter(param, value)
      return { binding, cctx }
    } catch {
      return null
    }
  })
}

/** Whether Scroll's compressed size can be counted here (the optional zstd-napi addon loaded). */
export function scrollCompressorAvailable(): boolean {
  return compressor() !== null
}

/**
 * Scroll's compressed size of raw bytes: `min(len(zstd(bytes)), len(bytes))`, 0 for none, as compute_compressed_size.
 * @param bytes what the chain compresses: the signed EIP-2718 transaction
 * @returns bytes, or null without the zstd addon
 * @example scrollZstdLength(scrTransferCalldata) // 49 for compression.rs's 68-byte scr-transfer vector
 */
export function scrollZstdLength(bytes: Uint8Array): number | null {
  const c = compressor()
  if (c === null) return null
  if (bytes.length === 0) return 0
  const compressed = c.cctx.compress2(new Uint8Array(c.binding.compressBound(bytes.length)), bytes)
  return Math.min(compressed, bytes.length)
}

/**
 * Scroll's compressed size (Galileo's cs) of a transaction given unsigned: that of its signed form with a placeholder
 * signature that compresses as a real one (lib/core/fee-math/placeholder-signed.ts), so the answer is the size the chain
 * will charge for once the sender signs it.
 * @param unsignedTx the unsigned serialized transaction, 0x hex
 * @returns bytes, or null without the zstd addon (then use scrollL1FeeUpperBound)
 * @throws InvalidQueryError ('tx') when the hex is not an unsigned transaction Scroll takes
 * @example scrollCompressedSize(serializeTransaction({ chainId: 534352, to, data, maxFeePerGas }))
 */
export function scrollCompressedSize(unsignedTx: `0x${string}`): number | null {
  const signed = placeholderSigned(unsignedTx)
  return scrollZstdLength(signed)
}
