import { describe, expect, test } from 'vitest'
import { countLines, houseReport, MAX_FILE_LINES } from '@/scripts/house/comment-share'

describe('countLines', () => {
  test('default: a comment line starts with //, /*, * or */ once trimmed; blank lines count in neither share', () => {
    const text =
      ['/**', ' * Docs.', ' */', 'export const a = 1 // trailing', '', '  // inline', 'const b = `', '*/`', '   '].join('\n') + '\n'
    expect(countLines('x.ts', text)).toEqual({ file: 'x.ts', lines: 9, nonBlank: 7, comment: 5 })
  })

  test('args: an empty file has no lines', () => {
    expect(countLines('x.ts', '')).toEqual({ file: 'x.ts', lines: 0, nonBlank: 0, comment: 0 })
  })
})

describe('houseReport', () => {
  test('behavior: the share is over every file together, and a file past the limit is named', () => {
    const r = houseReport([
      { file: 'a.ts', lines: 10, nonBlank: 8, comment: 2 },
      { file: 'b.ts', lines: MAX_FILE_LINES + 1, nonBlank: 2, comment: 0 },
    ])
    expect(r.share).toBe(0.2)
    expect(r.oversized.map((f) => f.file)).toEqual(['b.ts'])
  })
})
