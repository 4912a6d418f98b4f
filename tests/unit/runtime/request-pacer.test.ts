// The pacer of request starts, on the real event loop: a turn is one pass of Node's loop, waited for with
// setImmediate (an immediate set in the check phase runs in the next turn, behind the pacer's own). The clock is the test's.
import { describe, expect, test } from 'vitest'
import { createPacer, MAX_HOLD_MS, MAX_WAITING, STARTS_PER_TURN, TURN_BUDGET_MS } from '@/lib/runtime/request-pacer'
import { pacedRequest } from '@/lib/runtime/peer-stamp'

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

function setup() {
  let clock = 1_000
  const pacer = createPacer(TURN_BUDGET_MS, () => clock)
  const started: string[] = []
  const start = (name: string) => () => started.push(name)
  return { pacer, started, start, advance: (ms: number) => (clock += ms) }
}

describe('request pacer', () => {
  test('behavior: with none waiting and the turn within its budget, a request starts at once', () => {
    const { pacer, started, start, advance } = setup()
    pacer.pace(start('a'))
    advance(TURN_BUDGET_MS - 1)
    pacer.pace(start('b'))
    expect(started).toEqual(['a', 'b'])
    expect(pacer.waiting()).toBe(0)
  })

  test('behavior: past the turn budget, later requests wait, in arrival order, and a turn that accepted nothing starts STARTS_PER_TURN of them', async () => {
    const { pacer, started, start, advance } = setup()
    pacer.pace(start('a'))
    advance(TURN_BUDGET_MS)
    const names = Array.from({ length: STARTS_PER_TURN + 2 }, (_, i) => `w${i}`)
    for (const name of names) pacer.pace(start(name))
    expect([started, pacer.waiting()]).toEqual([['a'], STARTS_PER_TURN + 2])
    await nextTurn()
    expect(started).toEqual(['a', ...names.slice(0, STARTS_PER_TURN)])
    // some wait: a new request queues behind them, even in a fresh turn
    pacer.pace(start('late'))
    expect(started).toHaveLength(STARTS_PER_TURN + 1)
    await nextTurn()
    expect([started, pacer.waiting()]).toEqual([['a', ...names, 'late'], 0])
    // nothing waits again, and a new turn has its whole budget: at once
    await nextTurn()
    pacer.pace(start('e'))
    expect(started.at(-1)).toBe('e')
  })

  test('behavior: while each turn accepts a connection, waiting requests hold, for MAX_HOLD_MS of time, not a count of turns', async () => {
    const { pacer, started, start, advance } = setup()
    pacer.pace(start('a'))
    advance(TURN_BUDGET_MS)
    pacer.pace(start('b'))
    pacer.pace(start('c'))
    const holdingTurns = async (turns: number) => {
      for (let turn = 0; turn < turns; turn++) {
        pacer.accepted()
        await nextTurn()
      }
    }
    // the hold begins at the first turn that accepted: 40 turns at that same moment, then one just inside the bound
    await holdingTurns(40)
    advance(MAX_HOLD_MS - 1)
    await holdingTurns(1)
    expect(started).toEqual(['a'])
    advance(1)
    await holdingTurns(1)
    expect(started).toEqual(['a', 'b'])
    // a new hold for the next one, until a turn accepts nothing
    await holdingTurns(1)
    expect(started).toEqual(['a', 'b'])
    await nextTurn()
    expect(started).toEqual(['a', 'b', 'c'])
  })

  test('edge: a waiting request whose client has gone never starts, and the next one takes its turn', async () => {
    const { pacer, started, start, advance } = setup()
    pacer.pace(start('a'))
    advance(TURN_BUDGET_MS)
    let gone = false
    pacer.pace(start('b'), () => gone)
    pacer.pace(start('c'), () => false)
    gone = true
    await nextTurn()
    expect([started, pacer.waiting()]).toEqual([['a', 'c'], 0])
  })
  test('edge: a start that throws leaves the requests behind it to start', async () => {
    const { pacer, started, start, advance } = setup()
    const errors: unknown[] = []
    const onError = (err: unknown) => errors.push(err)
    process.prependListener('uncaughtException', onError)
    try {
      pacer.pace(start('a'))
      advance(TURN_BUDGET_MS)
      pacer.pace(() => {
        throw new Error('a handler threw')
      })
      pacer.pace(start('c'))
      await nextTurn()
      await nextTurn()
    } finally {
      process.removeListener('uncaughtException', onError)
    }
    expect(errors).toHaveLength(1)
    expect([started, pacer.waiting()]).toEqual([['a', 'c'], 0])
  })
  test('edge: past MAX_WAITING waiting requests, a new one starts at once', async () => {
    const { pacer, started, start, advance } = setup()
    pacer.pace(start('a'))
    advance(TURN_BUDGET_MS)
    for (let i = 0; i < MAX_WAITING; i++) pacer.pace(() => {})
    pacer.pace(start('over'))
    expect([started, pacer.waiting()]).toEqual([['a', 'over'], MAX_WAITING])
    while (pacer.waiting() > 0) await nextTurn()
  })

  test('edge: a connection accepted while nothing waited holds no later turn', async () => {
    const { pacer, started, start, advance } = setup()
    pacer.accepted()
    await nextTurn()
    await nextTurn()
    pacer.pace(start('a'))
    advance(TURN_BUDGET_MS)
    pacer.pace(start('b'))
    await nextTurn()
    expect(started).toEqual(['a', 'b'])
  })

  test('edge: a gone check that throws counts as gone, and strands none behind it', async () => {
    const { pacer, started, start, advance } = setup()
    pacer.pace(start('a'))
    advance(TURN_BUDGET_MS)
    pacer.pace(start('b'), () => {
      throw new Error('no socket')
    })
    pacer.pace(start('c'))
    await nextTurn()
    expect([started, pacer.waiting()]).toEqual([['a', 'c'], 0])
  })
})

describe('which requests are paced', () => {
  test("behavior: a connection's first request is, its later ones and the probes are not", () => {
    const keepAlive = {}
    expect(pacedRequest({ url: '/networks/1/stream', headers: {}, socket: keepAlive })).toBe(true)
    expect(pacedRequest({ url: '/networks/1/suggestedGasFees', headers: {}, socket: keepAlive })).toBe(false)
    for (const url of ['/healthz', '/readyz?x=1', '/metrics']) expect(pacedRequest({ url, headers: {}, socket: {} })).toBe(false)
    expect(pacedRequest({ url: '/healthzz', headers: {}, socket: {} })).toBe(true)
    expect(pacedRequest({ url: '/v1/stream', headers: {}, socket: null })).toBe(false)
  })
})
