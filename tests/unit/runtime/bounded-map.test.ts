import { expect, test } from 'vitest'
import { BoundedMap } from '@/lib/runtime/bounded-map'

test('behavior: at most max entries; the least recently used goes first, one at a time', () => {
  const m = new BoundedMap<string, number>(3)
  m.set('a', 1)
  m.set('b', 2)
  m.set('c', 3)
  expect(m.get('a')).toBe(1) // a is now the most recently used
  m.set('d', 4)
  expect([m.has('a'), m.has('b'), m.has('c'), m.has('d')]).toEqual([true, false, true, true])
  expect(m.size).toBe(3)
})

test('behavior: one caller filling it evicts the oldest entries, never all at once', () => {
  const m = new BoundedMap<string, number>(1_000)
  m.set('victim', 1)
  for (let i = 0; i < 998; i++) m.set(`spam-${i}`, i)
  m.get('victim')
  for (let i = 998; i < 1_500; i++) m.set(`spam-${i}`, i)
  expect(m.has('victim')).toBe(true)
  expect(m.size).toBe(1_000)
})
