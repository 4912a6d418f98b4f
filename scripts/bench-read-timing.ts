// npm run bench:read-timing: the feed's read timing (lib/feed/read-timing.ts nextRead) on simulated chains:
// reads per block, skipped blocks, and how soon after a block reaches the node it is read.
import { printReadTimingTable } from './bench/read-timing'

printReadTimingTable()
