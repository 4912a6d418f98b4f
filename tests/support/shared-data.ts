import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseCsv, type CsvRow } from '@/scripts/record/recording'
import { gunzipSync } from 'node:zlib'

/** ../shared/data beside the checkout (tests and CI have it there; it is never copied into the repo). */
export const SHARED_DATA = fileURLToPath(new URL('../../../shared/data', import.meta.url))

/** Whether ../shared/data is there: a user's own clone may not have it (see vitest.config.ts). */
export const HAS_SHARED_DATA = existsSync(SHARED_DATA)

export function sharedDataPath(...parts: string[]): string {
  const p = join(SHARED_DATA, ...parts)
  if (!existsSync(p)) throw new Error(`shared data missing: ${p} (expected ../shared/data beside the checkout)`)
  return p
}

/** Rows of a (possibly gzipped) CSV of shared/data, through the library's own reader. */
export function readCsv(...parts: string[]): CsvRow[] {
  return parseCsv(readText(...parts))
}

/** A (possibly gzipped) text file of shared/data. */
export function readText(...parts: string[]): string {
  const file = sharedDataPath(...parts)
  const raw = readFileSync(file)
  return (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')
}

export function readJson<T = unknown>(...parts: string[]): T {
  return JSON.parse(readFileSync(sharedDataPath(...parts), 'utf8')) as T
}

/** An erigon rpc-tests fixture: [{ request, response }]. */
export function erigonFixture(network: string, method: string, test: string) {
  const [entry] = readJson<{ request: unknown; response: { result?: unknown } }[]>(
    'erigon-rpc-tests-fixtures',
    'integration',
    network,
    method,
    `${test}.json`,
  )
  if (!entry) throw new Error(`erigon fixture ${network}/${method}/${test} is empty`)
  return entry
}

/** The EIP-1559 base fee update (target = gasLimit / 2, denominator 8), for independent checks. */
export function nextBaseFee(baseFee: bigint, gasUsed: bigint, gasLimit: bigint): bigint {
  const target = gasLimit / 2n
  if (gasUsed === target) return baseFee
  if (gasUsed > target) {
    const delta = (baseFee * (gasUsed - target)) / target / 8n
    return baseFee + (delta > 1n ? delta : 1n)
  }
  return baseFee - (baseFee * (target - gasUsed)) / target / 8n
}
