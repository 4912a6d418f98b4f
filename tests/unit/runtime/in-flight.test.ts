import { describe, expect, test } from 'vitest'
import { joinInFlight } from '@/lib/runtime/in-flight'

/** A run that settles when told, counting its starts. */
function held<V>() {
  let starts = 0
  const settle: { resolve?: (v: V) => void; reject?: (e: unknown) => void } = {}
  const run = () => {
    starts++
    return new Promise<V>((resolve, reject) => Object.assign(settle, { resolve, reject }))
  }
  return { run, settle, starts: () => starts }
}

describe('joinInFlight', () => {
  test('behavior: calls while a key runs share its promise; other keys run on their own; a settled key runs again', async () => {
    const pending = new Map<string, Promise<number>>()
    const a = held<number>()
    const first = joinInFlight(pending, 'a', a.run)
    const second = joinInFlight(pending, 'a', a.run)
    expect(second).toBe(first)
    expect(a.starts()).toBe(1)
    const b = held<number>()
    void joinInFlight(pending, 'b', b.run)
    expect(b.starts()).toBe(1)
    a.settle.resolve!(7)
    expect(await Promise.all([first, second])).toEqual([7, 7])
    expect(pending.has('a')).toBe(false)
    expect(pending.has('b')).toBe(true)
    void joinInFlight(pending, 'a', a.run)
    expect(a.starts()).toBe(2)
  })

  test('error: a failed run fails every caller that joined it, and is not kept', async () => {
    const pending = new Map<string, Promise<number>>()
    const a = held<number>()
    const calls = [joinInFlight(pending, 'a', a.run), joinInFlight(pending, 'a', a.run)]
    a.settle.reject!(new Error('upstream'))
    for (const call of calls) await expect(call).rejects.toThrow('upstream')
    expect(pending.size).toBe(0)
  })
})
