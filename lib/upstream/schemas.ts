import { z } from 'zod'

/** Raw JSON-RPC shapes (hex quantities). Amounts are bounded to uint128 so absurd values fail here. */
export const Uint128Hex = z.string().regex(/^0x[0-9a-fA-F]{1,32}$/, 'a hex quantity of at most 128 bits')
/** Block numbers and timestamps must fit a JS safe integer. */
export const SafeIntHex = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,14}$/, 'a hex quantity')
  .transform((h) => Number.parseInt(h, 16))
  .pipe(z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER))

export const RpcChainIdSchema = SafeIntHex

export const RpcBlockHeaderSchema = z.object({
  number: SafeIntHex,
  timestamp: SafeIntHex,
  baseFeePerGas: Uint128Hex.nullish(),
  gasLimit: z
    .string()
    .regex(/^0x[0-9a-fA-F]{1,16}$/, 'a hex quantity of at most 64 bits')
    .nullish(),
  /** EIP-4844 header fields (Cancun and later): the blob forecast's exact next excess. */
  excessBlobGas: Uint128Hex.nullish(),
  blobGasUsed: Uint128Hex.nullish(),
  /** The block's transaction hashes (the header read asks for no bodies): only their count is kept. */
  transactions: z.array(z.unknown()).nullish(),
  /** Up to 32 bytes on Ethereum; OP-stack chains carry their EIP-1559 parameters here (Holocene). */
  extraData: z
    .string()
    .regex(/^0x([0-9a-fA-F]{2}){0,97}$/)
    .nullish(),
})

export const RpcFeeHistorySchema = z
  .object({
    oldestBlock: SafeIntHex,
    baseFeePerGas: z.array(Uint128Hex).min(2),
    gasUsedRatio: z.array(z.number().finite().min(0).max(2)),
    // a block without transactions may come back as [] or null (several clients answer so): no tips
    reward: z
      .array(
        z
          .array(Uint128Hex)
          .nullable()
          .transform((row) => row ?? []),
      )
      .nullish(),
    // EIP-4844's blob fields (execution-apis eth_feeHistory; go-ethereum sends them, 0 for blocks
    // before Cancun): absent, null or empty where a node has none, then left out
    baseFeePerBlobGas: z
      .array(Uint128Hex)
      .nullish()
      .transform((a) => (a?.length ? a : undefined)),
    blobGasUsedRatio: z
      .array(z.number().finite().min(0).max(2))
      .nullish()
      .transform((a) => (a?.length ? a : undefined)),
  })
  .refine((h) => h.baseFeePerGas.length === h.gasUsedRatio.length + 1, 'baseFeePerGas must have one entry more than gasUsedRatio')
  // no reward at all (null or absent) is a window without tip data; rows, when sent, one per block
  .refine((h) => h.reward == null || h.reward.length === h.gasUsedRatio.length, 'reward must have one row per block')
  // blob fields, when sent, like their execution twins: the blob base fees one entry more (the next block's)
  .refine(
    (h) => h.baseFeePerBlobGas === undefined || h.baseFeePerBlobGas.length === h.gasUsedRatio.length + 1,
    'baseFeePerBlobGas must have one entry more than gasUsedRatio',
  )
  .refine(
    (h) => h.blobGasUsedRatio === undefined || h.blobGasUsedRatio.length === h.gasUsedRatio.length,
    'blobGasUsedRatio must have one entry per block',
  )

export type RpcBlockHeader = z.infer<typeof RpcBlockHeaderSchema>
export type RpcFeeHistory = z.infer<typeof RpcFeeHistorySchema>
