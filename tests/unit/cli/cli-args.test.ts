import { spawnSync } from 'node:child_process'
import { describe, expect, test } from 'vitest'
import { parseOptions, UsageError } from '@/scripts/cli/cli-args'

const RECORD = { rpc: { type: 'string' }, blocks: { type: 'string' }, out: { type: 'string' } } as const

describe('parseOptions', () => {
  test('default: string options and flags, in any order, with --name=value too', () => {
    const { values } = parseOptions(['--out', 'x.jsonl', '--rpc=http://127.0.0.1:8545', '--blocks', '20'], RECORD)
    expect(values).toEqual({ out: 'x.jsonl', rpc: 'http://127.0.0.1:8545', blocks: '20' })
    const flags = parseOptions(['--no-build'], {
      'no-build': { type: 'boolean', default: false },
      seconds: { type: 'string', default: '5' },
    })
    expect(flags.values).toEqual({ 'no-build': true, seconds: '5' })
  })

  test('args: positionals only where the script takes them', () => {
    const opts = { lag: { type: 'string' } } as const
    expect(parseOptions(['a.jsonl', '--lag', '0,1', 'shared'], opts, { positionals: true }).positionals).toEqual(['a.jsonl', 'shared'])
    expect(() => parseOptions(['a.jsonl'], opts)).toThrow(UsageError)
  })

  test.each([
    ['an unknown option', ['--rpcs', 'x'], /Unknown option '--rpcs'/],
    ['a missing value', ['--out'], /--out <value>' argument missing/],
    ['a value that is another option', ['--rpc', '--out', 'x'], /ambiguous/],
    ['a value given to a flag', ['--no-build=yes'], /does not take an argument/],
  ])('error: %s is a UsageError with the reason', (_, args, reason) => {
    expect(() => parseOptions(args, { ...RECORD, 'no-build': { type: 'boolean' } })).toThrow(reason)
  })
})

// each case starts node with tsx (spawnSync's own limit is 30 s)
describe('the scripts', { timeout: 60_000 }, () => {
  // each entry point exits 2 with the usage line on a bad command line, before doing any work
  test.each([
    ['record', ['--rpc', 'http://127.0.0.1:9', '--out']],
    ['record', ['--nope']],
    ['backtest', ['--lagg', '1', 'x.jsonl']],
    ['waits', ['--data']],
    ['demo', ['--spede', '2']],
    ['bench', ['--seconds']],
    ['soak', ['extra']],
    ['bench-scale-out', ['--connection', '3']],
  ])('error: %s %s → usage, exit code 2', (script, args) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], { encoding: 'utf8', timeout: 30_000 })
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(/^usage: /m)
    expect(run.stdout).toBe('')
  })
})
