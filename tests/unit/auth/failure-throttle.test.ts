import { beforeEach, describe, expect, test } from 'vitest'
import { verifyBearer } from '@/lib/auth/bearer'
import {
  addressBlocked,
  instanceBlocked,
  FAILURE_WINDOW_MS,
  INSTANCE_CEILING_FACTOR,
  recordAuthFailure,
  resetAuthFailures,
} from '@/lib/auth/failure-throttle'

const T0 = 1_800_000_000_000

describe('addressBlocked / instanceBlocked / recordAuthFailure', () => {
  beforeEach(() => resetAuthFailures())

  test('default: an address is blocked after `limit` failures in its window, until the window ends', () => {
    for (let i = 0; i < 3; i++) {
      expect(addressBlocked('a', 3, T0 + i)).toBeNull()
      recordAuthFailure('a', T0 + i)
    }
    expect(addressBlocked('a', 3, T0 + 10)).toBe(60)
    expect(addressBlocked('a', 3, T0 + 30_000)).toBe(30)
    // another address is not affected
    expect(addressBlocked('b', 3, T0 + 10)).toBeNull()
    // the window opened with the first failure and ends 60 s later
    expect(addressBlocked('a', 3, T0 + FAILURE_WINDOW_MS - 1)).toBe(1)
    expect(addressBlocked('a', 3, T0 + FAILURE_WINDOW_MS)).toBeNull()
  })

  test('behavior: the instance ceiling (limit × 10) holds when every failure comes from another address', () => {
    const limit = 2
    for (let i = 0; i < limit * INSTANCE_CEILING_FACTOR; i++) {
      expect(instanceBlocked(limit, T0)).toBeNull()
      recordAuthFailure(`forged-${i}`, T0)
    }
    expect(instanceBlocked(limit, T0 + 1)).toBe(60)
    expect(instanceBlocked(limit, T0 + FAILURE_WINDOW_MS)).toBeNull()
  })

  test('args: limit 0 turns the throttle off', () => {
    for (let i = 0; i < 100; i++) recordAuthFailure('a', T0)
    expect(addressBlocked('a', 0, T0)).toBeNull()
  })
})

describe('verifyBearer', () => {
  const token = 'metrics-token-0123456789'
  test.each([
    [`Bearer ${token}`, 'ok'],
    [`bearer   ${token}`, 'ok'],
    [null, 'missing'],
    ['', 'missing'],
    [`Bearer ${token}x`, 'invalid'],
    [`Bearer ${token.slice(0, -1)}`, 'invalid'],
    [`Basic ${token}`, 'invalid'],
    ['Bearer', 'invalid'],
  ])('args: %s → %s', async (header, want) => {
    expect(await verifyBearer(header, token)).toBe(want)
  })
})
