import type { PendingPiecesBody } from '@/lib/core/contract/pending-schema'
import { waitInPieces } from '@/lib/core/units'

/** A level's wait on a flashblocks chain, in pieces and seconds: "1–2 pieces (0.2–0.4 s)". */
export function formatPieceWait(minMs: number, maxMs: number, cadenceMs: number): string {
  const [a, b] = [waitInPieces(minMs, cadenceMs), waitInPieces(maxMs, cadenceMs)]
  const s = (ms: number) => String(Math.round(ms / 100) / 10)
  const pieces = a === b ? `${b} piece${b === 1 ? '' : 's'}` : `${a}–${b} pieces`
  return `${pieces} (${a === b ? `~${s(maxMs)}` : `${s(minMs)}–${s(maxMs)}`} s)`
}

/** On a flashblocks chain: which piece the answer follows, and whether the pending pieces are full. */
export function PiecesNote({ pending }: { pending: PendingPiecesBody }) {
  return (
    <p data-testid="pieces-note" data-full={pending.full} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
      Flashblocks: block {pending.blockNumber} is built in {pending.pieces} pieces, one every {Math.round(pending.cadenceMs)} ms; these fees
      follow piece {pending.piece}.{' '}
      {pending.full ? (
        <strong className="font-semibold text-amber-700 dark:text-amber-400">
          The pending pieces are full: every tip outbids the newest piece&apos;s marginal tip.
        </strong>
      ) : (
        'The pending pieces have room.'
      )}
    </p>
  )
}
