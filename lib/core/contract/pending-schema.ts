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
    cadenceMs: z.number().positive().meta({ description: 'The measured time from one piece to the next, milliseconds.' }),
    full: z
      .boolean()
      .meta({ description: 'Whether the pieces being built are full (cumulative gas near piece × floor(gasLimit / pieces)).' }),
  })
  .meta({ description: 'Only on flashblocks chains: the pending pieces the answer follows.' })

export type PendingPiecesBody = z.infer<typeof PendingPiecesSchema>
