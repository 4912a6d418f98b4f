import { expect, test } from 'vitest'
import { hasMalformedEscape } from '@/lib/http/path'

test.each([
  ['/networks/1/busyThreshold', false],
  ['/networks/%D9%A3/busyThreshold', false],
  ['/networks/31337%2F1/x', false],
  ['/networks/%ZZ/busyThreshold', true],
  ['/networks/%FF/busyThreshold', true],
  ['/networks/%/busyThreshold', true],
])('behavior: %s malformed: %s', (path, want) => {
  expect(hasMalformedEscape(path)).toBe(want)
})
