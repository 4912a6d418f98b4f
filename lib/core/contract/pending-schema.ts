import { z } from 'zod'

/**
 * On a flashblocks chain, the block under construction the answer is made from (lib/core/fee-math/flashblocks.ts):
 * the waits are then in pieces, and while `full` every tip beats the lowest that got into the newest piece.
 */
export const PendingPiecesSchema = z
  .object({
    blockNumber: z.number().int().nonnegative().meta({ description: 'The block being built: the sealed head + 1.' }),
    piece: z.number().int().nonnegative().meta({ description: 'The piece it has reached (0: the system transactions only).' }),
    pieces: z.number().int().positive().meta({ description: 'Pieces per block, from the measured cadence.' }),
    cadenceMs: z.number().positive().meta({
      description:
        "The time from one piece to the next, milliseconds: measured, or the chain's published one (Base's, Unichain's 200) when the measurement is from 5% under it to a fifth over it.",
    }),
    full: z.boolean().meta({
      description:
        "Whether a newcomer must outbid: the pieces being built are full (cumulative gas near piece × floor(gasLimit / pieces)), or a block's first piece follows a full one.",
    }),
  })
  .meta({ description: 'Only on flashblocks chains: the pending pieces the answer follows.' })

export type PendingPiecesBody = z.infer<typeof PendingPiecesSchema>

const ShareSchema = z.number().min(0).max(1)
const PieceRefSchema = z.object({ blockNumber: z.number().int().nonnegative(), piece: z.number().int().nonnegative() })

/** One level's record per piece (lib/core/evaluation/piece-accuracy.ts LevelPieceAccuracy). */
const LevelPieceAccuracySchema = z.object({
  trials: z.number().int().nonnegative(),
  promisedPieces: z.number().nonnegative().meta({ description: 'The pieces the level promises: maxWaitTimeEstimate over the cadence.' }),
  includedWithinPromise: ShareSchema.nullable(),
  targetInclusion: ShareSchema,
  medianWaitPieces: z.number().nonnegative().nullable(),
  medianOverpayment: z.number().nullable(),
})

/** GET accuracy's `pieces` on a flashblocks chain (lib/core/evaluation/piece-accuracy.ts PieceAccuracy). */
export const PieceAccuracySchema = z
  .object({
    cadenceMs: z.number().positive(),
    piecesPerBlock: z.number().int().positive(),
    piecesSeen: z.number().int().nonnegative().meta({ description: 'States of the pending block the feed read and kept.' }),
    judgedPieces: z.object({ from: PieceRefSchema, to: PieceRefSchema }).nullable(),
    spanSeconds: z.number().nonnegative(),
    levels: z.object({ low: LevelPieceAccuracySchema, medium: LevelPieceAccuracySchema, high: LevelPieceAccuracySchema }),
  })
  .meta({ description: "Only on flashblocks chains: each followed piece's suggestion judged on the pieces after it." })
