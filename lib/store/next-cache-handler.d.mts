/** Types for next-cache-handler.mjs (Next's CacheHandler contract, loosely typed). */
/** unstable_cache entries with this tag stay in the instance's memory, never in Redis. */
export const INSTANCE_LOCAL_TAG: 'gas-api:instance-local'
export default class GasApiCacheHandler {
  static local(): Map<string, { lastModified: number; value: unknown; tags: string[] }>
  constructor(ctx: unknown)
  handler(): Promise<unknown | null>
  get(key: string, ctx: unknown): Promise<{ value: unknown; lastModified: number } | null>
  set(key: string, data: unknown, ctx: unknown): Promise<void>
  revalidateTag(tags: string | string[], durations?: unknown): Promise<void>
  resetRequestCache(): void
}
