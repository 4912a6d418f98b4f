// The reading thread of the pending pieces (Node's worker_threads, started by lib/feed/piece-thread.ts).
import { parentPort } from 'node:worker_threads'
import { readPendingBlock } from '../upstream/read-pending'
import { hostPieces, type PieceHeard, type PiecePort, type PieceTold } from './piece-bridge'

if (parentPort) hostPieces(parentPort as PiecePort<PieceHeard, PieceTold>, (told) => readPendingBlock(told.rpcUrls, told.timeoutMs))
