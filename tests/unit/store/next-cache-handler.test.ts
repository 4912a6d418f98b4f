import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, test, vi } from 'vitest'

// Next bundles the configured cacheHandler into the edge middleware too: the file next.config.mjs
// names must load there, so it may import nothing at module evaluation.
const WRAPPER = 'lib/store/next-cache-handler.mjs'
const entry = { kind: 'FETCH', data: { headers: {}, body: '{"ok":true}', status: 200, url: 'unstable_cache' }, revalidate: 60 }

afterEach(() => {
  vi.unstubAllEnvs()
})

// each test imports the handler afresh: a budget for the imports (docs/development.md, "Slow tests")
describe('next-cache-handler.mjs', { timeout: 30_000 }, () => {
  test('behavior: has no static import, so the edge middleware bundle can evaluate it', () => {
    expect(readFileSync(WRAPPER, 'utf8')).not.toMatch(/^\s*import\s/m)
  })

  test('behavior: on the edge runtime it is an empty cache and never loads the Node.js handler', async () => {
    vi.stubEnv('NEXT_RUNTIME', 'edge')
    const { default: Handler } = await import('@/lib/store/next-cache-handler.mjs')
    const h = new Handler({ serverDistDir: '/nonexistent', dev: false })
    await h.set('k', entry, { tags: [], revalidate: 60 })
    expect(await h.get('k', { kind: 'FETCH', softTags: [] })).toBeNull()
    expect(await h.handler()).toBeNull()
  })

  test("behavior: on Node.js without REDIS_URL it caches in the instance's LRU", async () => {
    vi.stubEnv('NEXT_RUNTIME', 'nodejs')
    vi.stubEnv('REDIS_URL', '')
    const { default: Handler } = await import('@/lib/store/next-cache-handler.mjs')
    const h = new Handler({ serverDistDir: '/nonexistent', dev: false })
    expect(await h.get('k2', { kind: 'FETCH', softTags: [] })).toBeNull()
    await h.set('k2', entry, { tags: ['t'], revalidate: 60 })
    const got = await h.get('k2', { kind: 'FETCH', softTags: [] })
    expect(got?.value).toMatchObject({ kind: 'FETCH', data: { body: '{"ok":true}' } })
  })

  test('behavior: entries tagged instance-local stay in memory and never reach the shared (Redis) handler; revalidateTag drops them', async () => {
    vi.stubEnv('NEXT_RUNTIME', 'nodejs')
    const { default: Handler, INSTANCE_LOCAL_TAG } = await import('@/lib/store/next-cache-handler.mjs')
    const h = new Handler({ serverDistDir: '/nonexistent', dev: false })
    const inner = { get: vi.fn(async () => null), set: vi.fn(async () => {}), revalidateTag: vi.fn(async () => {}) }
    h.handler = () => Promise.resolve(inner)
    const ctx = { tags: ['fee-window-v4', INSTANCE_LOCAL_TAG], revalidate: 1 }
    await h.set('window', entry, ctx)
    const got = await h.get('window', { kind: 'FETCH', tags: ctx.tags, softTags: [] })
    expect(got?.value).toEqual(entry)
    expect(inner.set).not.toHaveBeenCalled()
    expect(inner.get).not.toHaveBeenCalled()
    // an untagged entry still goes to the shared handler
    await h.set('page', entry, { tags: ['t'], revalidate: 60 })
    expect(inner.set).toHaveBeenCalledTimes(1)
    await h.revalidateTag('fee-window-v4')
    expect(await h.get('window', { kind: 'FETCH', tags: ctx.tags, softTags: [] })).toBeNull()
  })
})
