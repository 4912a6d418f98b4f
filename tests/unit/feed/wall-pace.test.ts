import { describe, expect, test } from 'vitest'
import { WallPace } from '@/lib/feed/read-timing/wall-pace'

describe('WallPace', () => {
  test('default: unknown until five heads, then the median wall time per block', () => {
    const pace = new WallPace()
    for (let i = 0; i < 4; i++) pace.note(100 + i, i * 2_000)
    expect(pace.ms).toBeUndefined()
    pace.note(104, 8_000)
    expect(pace.ms).toBe(2_000)
  })

  test('behavior: a pause is one gap, not a slower pace; older or repeated heads are ignored', () => {
    const pace = new WallPace()
    for (let i = 0; i < 10; i++) pace.note(100 + i, i * 2_000)
    pace.note(110, 60_000)
    pace.note(105, 61_000)
    pace.note(110, 62_000)
    expect(pace.ms).toBe(2_000)
  })

  test('behavior: a head far ahead of the last starts over', () => {
    const pace = new WallPace()
    for (let i = 0; i < 10; i++) pace.note(100 + i, i * 2_000)
    pace.note(200, 100_000)
    expect(pace.ms).toBeUndefined()
  })
})
