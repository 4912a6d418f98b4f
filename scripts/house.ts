// node --import tsx scripts/house.ts [--top <n>] – the comment share of the service's code and its files over 350 lines; exit 1 past a limit
import { fileURLToPath } from 'node:url'
import { parseCommandLine, usageExit } from './cli/cli-args'
import { MAX_COMMENT_SHARE, MAX_FILE_LINES, readHouseReport } from './house/comment-share'

const USAGE = 'usage: npm run house [-- --top <n>]'
const { values } = parseCommandLine(USAGE, { top: { type: 'string' } })
const top = Number(values.top ?? 0)
if (!Number.isInteger(top) || top < 0) usageExit(USAGE, `--top takes a whole number of files, not ${values.top}`)

const r = readHouseReport(fileURLToPath(new URL('..', import.meta.url)))
const pct = (x: number) => `${(100 * x).toFixed(1)}%`
console.log(
  `comment lines: ${r.comment} of ${r.nonBlank} non-blank lines in ${r.files.length} files = ${pct(r.share)} (limit ${pct(MAX_COMMENT_SHARE)})`,
)
if (top > 0) {
  console.log(`\nthe ${top} files with the most comment lines:`)
  for (const f of [...r.files].sort((a, b) => b.comment - a.comment).slice(0, top))
    console.log(
      `  ${String(f.comment).padStart(4)} of ${String(f.nonBlank).padStart(4)}  ${pct(f.comment / f.nonBlank).padStart(6)}  ${f.file}`,
    )
}
for (const f of r.oversized) console.log(`over ${MAX_FILE_LINES} lines: ${f.file} (${f.lines})`)
if (r.share > MAX_COMMENT_SHARE || r.oversized.length > 0) process.exit(1)
