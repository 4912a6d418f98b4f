/** Types for next-cache-handler.mjs (Next's CacheHandler contract, loosely typed). */
export default class GasApiCacheHandler {
  constructor(ctx: unknown)
  handler(): Promise<unknown | null>
  get(key: string, ctx: unknown): Promise<{ value: unknown; lastModified: number } | null>
  set(key: string, data: unknown, ctx: unknown): Promise<void>
  revalidateTag(tags: string | string[], durations?: unknown): Promise<void>
  resetRequestCache(): void
}
