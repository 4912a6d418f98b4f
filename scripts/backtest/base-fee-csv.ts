/**
 * A plain CSV base-fee window (issue 21, point 5): the input of the base-fee forecast's backtest.
 * Pure: the caller reads (and gunzips) the file.
 *
 * A header line names the columns, in any order; other columns are ignored:
 * - `block_number`: decimal or `0x` hex;
 * - `basefee_wei`: the block's base fee, wei (decimal or `0x` hex);
 * - `timestamp` (optional): unix seconds, or `YYYY-MM-DD HH:MM:SS` in UTC;
 * - `gas_used` and `gas_limit` (optional, used together).
 * ethereum-etl's `export_blocks` names (`number`, `base_fee_per_gas`) and JSON-RPC's (`number`,
 * `baseFeePerGas`, `gasUsed`, `gasLimit`, also camcos' `blockNumber`) are read as the same columns.
 * Cells may be double-quoted (RFC 4180, within one line). Rows are sorted by block number (exports
 * are not always in order); a repeated block must repeat its base fee. A missing block is a gap:
 * the window's `numbers` say where, and the forecast's trials never span one.
 */
import type { BaseFeeWindow } from './forecast-trials'

/** A file that cannot be read as a base-fee window: the message says why (and on which line). */
export class BaseFeeCsvError extends Error {
  override name = 'BaseFeeCsvError'
  constructor(
    message: string,
    /** 1-based line of the file (the header is line 1), when one line is at fault. */
    readonly line?: number,
    options?: { cause?: unknown },
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`, options)
  }
}

/** An EIP-1559 base-fee rule: change denominator and elasticity multiplier (gas limit / gas target). */
export type Eip1559Rule = { denominator: number; elasticity: number }

/** Ethereum's (go-ethereum params: BaseFeeChangeDenominator 8, ElasticityMultiplier 2). */
export const ETHEREUM_1559: Eip1559Rule = { denominator: 8, elasticity: 2 }

export type BaseFeeCsvWindow = BaseFeeWindow & {
  /** unix seconds per block (parallel to numbers), or null when the file has no timestamp column */
  timestamps: number[] | null
  /** Where intervalMs came from: the mean gap between consecutive blocks' timestamps, or 12 s assumed (no timestamps). */
  intervalSource: 'timestamps' | 'default'
  /**
   * Gas used over gas limit per block (eth_feeHistory's gasUsedRatio): from `gas_used` / `gas_limit`,
   * or derived from the next base fee by the EIP-1559 rule (gasUsed / target = 1 + denominator ×
   * (next / base − 1), target = limit / elasticity). null where it is unknown: the last block before a
   * gap or the end, a step the rule cannot produce, or every block when neither way is open.
   */
  gasUsedRatio: (number | null)[]
  gasUsedSource: 'columns' | 'next-base-fee' | 'unknown'
}

/** Block interval assumed when the file has no timestamps: Ethereum's 12 s slot. */
export const DEFAULT_INTERVAL_MS = 12_000

/** Accepted header names per column, the canonical one first. */
const COLUMNS = {
  number: ['block_number', 'number', 'blocknumber'],
  baseFee: ['basefee_wei', 'base_fee_per_gas', 'basefeepergas'],
  timestamp: ['timestamp'],
  gasUsed: ['gas_used', 'gasused'],
  gasLimit: ['gas_limit', 'gaslimit'],
} as const
type Column = keyof typeof COLUMNS

/** Cells of one CSV line: commas separate, double quotes enclose (a doubled quote is one quote). */
function cells(line: string, lineNo: number): string[] {
  const out: string[] = []
  let i = 0
  for (;;) {
    if (line[i] === '"') {
      let cell = ''
      i++
      for (;;) {
        const q = line.indexOf('"', i)
        if (q < 0) throw new BaseFeeCsvError('unterminated quoted cell (a cell may not span lines)', lineNo)
        cell += line.slice(i, q)
        if (line[q + 1] === '"') {
          cell += '"'
          i = q + 2
        } else {
          i = q + 1
          break
        }
      }
      out.push(cell)
      if (i >= line.length) return out
      if (line[i] !== ',') throw new BaseFeeCsvError('text after a quoted cell', lineNo)
      i++
    } else {
      const comma = line.indexOf(',', i)
      if (comma < 0) {
        out.push(line.slice(i))
        return out
      }
      out.push(line.slice(i, comma))
      i = comma + 1
    }
  }
}

const INTEGER = /^(?:0x[0-9a-f]+|[0-9]+)$/i

/** A non-negative integer cell, decimal or 0x hex. */
function integer(cell: string, name: string, lineNo: number): bigint {
  const v = cell.trim()
  if (v === '') throw new BaseFeeCsvError(`empty ${name}`, lineNo)
  if (!INTEGER.test(v)) throw new BaseFeeCsvError(`${name} ${JSON.stringify(v.slice(0, 40))} is not a decimal or 0x-hex integer`, lineNo)
  return BigInt(v)
}

function safeNumber(cell: string, name: string, lineNo: number): number {
  const v = integer(cell, name, lineNo)
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new BaseFeeCsvError(`${name} ${v} is too large`, lineNo)
  return Number(v)
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})Z?$/

/** Unix seconds, or a UTC date and time `YYYY-MM-DD HH:MM:SS`. */
function timestamp(cell: string, lineNo: number): number {
  const v = cell.trim()
  const m = DATE_TIME.exec(v)
  if (!m) return safeNumber(v, 'timestamp (unix seconds or YYYY-MM-DD HH:MM:SS)', lineNo)
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number]
  const ms = Date.UTC(y, mo - 1, d, h, mi, s)
  const back = new Date(ms)
  // Date.UTC rolls 2023-02-30 over to March: refuse what is not a real date and time
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59)
    throw new BaseFeeCsvError(`timestamp ${JSON.stringify(v)} is not a valid UTC date and time`, lineNo)
  return ms / 1000
}

/**
 * Reads a CSV base-fee window (see the module comment for the columns).
 * `rule`: the chain's EIP-1559 rule, to derive gas used from the next base fee where the file has
 * no `gas_used` and `gas_limit`; null where the chain sets its base fee otherwise (the ratio is then
 * unknown). Ethereum's by default.
 * @throws BaseFeeCsvError naming the column or the line at fault
 */
export function readBaseFeeCsv(text: string, opts: { rule?: Eip1559Rule | null } = {}): BaseFeeCsvWindow {
  const rule = opts.rule === undefined ? ETHEREUM_1559 : opts.rule
  const lines = text.replace(/^\uFEFF/, '').split('\n')
  const headerLine = lines[0]?.replace(/\r$/, '') ?? ''
  if (headerLine.trim() === '') throw new BaseFeeCsvError('empty file: no header line')
  const header = cells(headerLine, 1).map((h) => h.trim().toLowerCase())
  const index = {} as Record<Column, number>
  for (const [col, names] of Object.entries(COLUMNS) as [Column, readonly string[]][]) {
    const found = names.map((n) => header.indexOf(n)).find((i) => i >= 0)
    if (found !== undefined) index[col] = found
  }
  const shown = JSON.stringify(headerLine.length > 80 ? `${headerLine.slice(0, 80)}…` : headerLine)
  if (index.number === undefined) throw new BaseFeeCsvError(`no block_number column (header line: ${shown})`)
  if (index.baseFee === undefined) throw new BaseFeeCsvError(`no basefee_wei column (header line: ${shown})`)
  const hasGas = index.gasUsed !== undefined && index.gasLimit !== undefined
  const hasTime = index.timestamp !== undefined

  type Row = { number: number; baseFee: bigint; timestamp?: number; gasUsed?: bigint; gasLimit?: bigint; line: number }
  const rows: Row[] = []
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '')
    if (line.trim() === '') continue
    const lineNo = i + 1
    const c = cells(line, lineNo)
    const cell = (col: Column) => {
      const v = c[index[col]]
      if (v === undefined) throw new BaseFeeCsvError(`${c.length} cells, fewer than the header's ${header.length}`, lineNo)
      return v
    }
    rows.push({
      line: lineNo,
      number: safeNumber(cell('number'), 'block_number', lineNo),
      baseFee: integer(cell('baseFee'), 'basefee_wei', lineNo),
      ...(hasTime ? { timestamp: timestamp(cell('timestamp'), lineNo) } : {}),
      ...(hasGas
        ? { gasUsed: integer(cell('gasUsed'), 'gas_used', lineNo), gasLimit: integer(cell('gasLimit'), 'gas_limit', lineNo) }
        : {}),
    })
  }
  if (rows.length === 0) throw new BaseFeeCsvError('no blocks after the header line')

  rows.sort((a, b) => a.number - b.number || a.line - b.line)
  const unique: Row[] = []
  for (const r of rows) {
    const prev = unique.at(-1)
    if (prev?.number !== r.number) unique.push(r)
    else if (prev.baseFee !== r.baseFee)
      throw new BaseFeeCsvError(
        `block ${r.number} again with another base fee (${r.baseFee} wei; ${prev.baseFee} wei on line ${prev.line})`,
        r.line,
      )
  }

  const numbers = unique.map((r) => r.number)
  const baseFees = unique.map((r) => r.baseFee)
  const timestamps = hasTime ? unique.map((r) => r.timestamp!) : null
  // the mean gap between consecutive blocks (a gap in the numbers is skipped): the service's own measure
  // (span / blocks, lib/upstream/read-fee-window.ts), which the median is not on irregular blocks (pre-Merge
  // mainnet: median 9 s, mean 13.3 s)
  let pairs = 0
  let seconds = 0
  if (timestamps)
    for (let i = 1; i < unique.length; i++)
      if (numbers[i] === numbers[i - 1]! + 1) {
        pairs++
        seconds += timestamps[i]! - timestamps[i - 1]!
      }
  const measured = pairs > 0 && seconds > 0
  const intervalMs = measured ? Math.round((seconds * 1000) / pairs) : DEFAULT_INTERVAL_MS

  let gasUsedSource: BaseFeeCsvWindow['gasUsedSource'] = 'unknown'
  let gasUsedRatio: (number | null)[] = unique.map(() => null)
  if (hasGas) {
    gasUsedSource = 'columns'
    gasUsedRatio = unique.map((r) => (r.gasLimit! > 0n ? Number(r.gasUsed!) / Number(r.gasLimit!) : null))
  } else if (rule) {
    gasUsedSource = 'next-base-fee'
    gasUsedRatio = unique.map((r, i) => {
      const next = baseFees[i + 1]
      if (next === undefined || numbers[i + 1] !== r.number + 1 || r.baseFee === 0n) return null
      const overTarget = 1 + (rule.denominator * Number(next - r.baseFee)) / Number(r.baseFee)
      const ratio = overTarget / rule.elasticity
      // a step the rule cannot produce (beyond integer rounding): the series is not this rule's
      return ratio < -1e-6 || ratio > 1 + 1e-6 ? null : Math.min(1, Math.max(0, ratio))
    })
  }

  return {
    numbers,
    baseFees,
    intervalMs,
    timestamps,
    intervalSource: measured ? 'timestamps' : 'default',
    gasUsedRatio,
    gasUsedSource,
  }
}
