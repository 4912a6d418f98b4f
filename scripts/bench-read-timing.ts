// npm run bench:read-timing: the feed's read timing (lib/feed/read-timing/next-read.ts nextRead) on simulated chains
// (scripts/bench/read-timing.ts): reads per block, skipped blocks, how soon after a block reaches the
// node it is read, and how often the window is more than one block behind.
import { afterPause, coldStart, coldStartTail, readTimingCases, runCase } from './bench/read-timing'

/** `npm run bench:read-timing`: reads per block, skipped blocks, read lag and head lag, per simulated chain. */
function printReadTimingTable(): void {
  const epochMs = 1_700_000_000_000
  const blocks = 2_000
  console.log(
    `${blocks} blocks' time per chain, the feed's read ceiling applied; counted from the 20th block after the first read's head (blocks 10–40: the cold start settling)\n`,
  )
  console.log(
    '| chain | reads per block | blocks 10–40 | blocks without a read of their own | read end after the block reached the node, p50 / p99 ms | time more than 1 block behind | cold start (16 starts, first 20 blocks each): blocks without a read, time more than 1 behind | cold starts over 1.1 reads per block in blocks 10–30 (of 100), worst |',
  )
  console.log('|---|---|---|---|---|---|---|---|')
  readTimingCases(epochMs).forEach((c, i) => {
    const r = runCase(c, i, epochMs, blocks)
    const cold = coldStart(c, i, epochMs)
    const tail = coldStartTail(c, i, epochMs)
    console.log(
      `| ${c.name} | ${r.readsPerBlock.toFixed(3)} | ${r.settlingReadsPerBlock.toFixed(3)} | ${r.skipped} of ${r.blocks} | ${Math.round(r.lagP50Ms)} / ${Math.round(r.lagP99Ms)} | ${(r.behindShare * 100).toFixed(1)}% | ${cold.skipped} of ${cold.blocks}, ${(cold.behindShare * 100).toFixed(1)}% | ${tail.over}, ${tail.max} reads for 20 blocks |`,
    )
  })
}

/** The 15 blocks after a pause, on an anvil-like chain, per block time and pause length. */
function printPauseTable(): void {
  const epochMs = 1_700_000_000_000
  console.log('\nA chain resumed after a pause (100 seeds each): reads from the first new block to the 15th\n')
  console.log(
    '| block time | pause | runs over 1.1 reads per block (of 100) | worst run, reads for 15 blocks | blocks without a read of their own |',
  )
  console.log('|---|---|---|---|---|')
  for (const stepMs of [1_000, 2_000]) {
    for (const pauseMs of [10_300, 30_700, 95_100]) {
      const r = afterPause(epochMs, stepMs, pauseMs)
      console.log(`| ${stepMs / 1_000} s | ${(pauseMs / 1_000).toFixed(1)} s | ${r.over} | ${r.max} | ${r.skipped} of 1500 |`)
    }
  }
}

printReadTimingTable()
printPauseTable()
