import { describe, expect, test, vi } from 'vitest'

// this instance's memory alone (no REDIS_URL): the ceilings every stream counts against
const ENV = { REDIS_URL: undefined, STREAM_MAX_PER_KEY: 2, PUBLIC_STREAM_LIMIT: 3, STREAM_MAX_TOTAL: 4 }
vi.mock('@/lib/env', async (importOriginal) => ({ ...(await importOriginal<typeof import('@/lib/env')>()), getServerEnv: () => ENV }))
const { acquireStreamSlots, heldStreamSlots, takeStreamSlots } = await import('@/lib/ratelimit/stream-slots')

describe('takeStreamSlots', () => {
  test('behavior: per key (429), for the keyless tier and the instance (503); a release gives the slots back, once', async () => {
    const releases: (() => void)[] = []
    releases.push(await takeStreamSlots('public:192.0.2.1', true), await takeStreamSlots('public:192.0.2.1', true))
    await expect(takeStreamSlots('public:192.0.2.1', true)).rejects.toMatchObject({ name: 'TooManyStreamsError' })
    releases.push(await takeStreamSlots('public:192.0.2.2', true))
    await expect(takeStreamSlots('public:192.0.2.3', true)).rejects.toMatchObject({ name: 'StreamCapacityError', message: /keyless tier/ })
    releases.push(await takeStreamSlots('alice', false))
    await expect(takeStreamSlots('bob', false)).rejects.toMatchObject({ name: 'StreamCapacityError', message: /instance holds 4/ })
    expect(heldStreamSlots('instance')).toBe(4)
    const first = releases[0]!
    first()
    first()
    expect(heldStreamSlots('instance')).toBe(3)
    expect(heldStreamSlots('keyless')).toBe(2)
    for (const r of releases.slice(1)) r()
    expect([heldStreamSlots('instance'), heldStreamSlots('keyless'), heldStreamSlots('key:public:192.0.2.1')]).toEqual([0, 0, 0])
  })

  test("behavior: concurrent opens see each other: exactly the ceiling is granted, all or none of a stream's scopes", async () => {
    const scopes = [
      { name: 'key:k', limit: 5, shared: true },
      { name: 'instance', limit: 3, shared: false },
    ]
    const grants = await Promise.all(Array.from({ length: 10 }, () => acquireStreamSlots(scopes)))
    expect(grants.filter((g) => g.ok)).toHaveLength(3)
    // a refused stream took nothing of the scope that still had room
    expect(heldStreamSlots('key:k')).toBe(3)
    for (const g of grants) if (g.ok) g.release()
    expect(heldStreamSlots('key:k')).toBe(0)
  })
})
