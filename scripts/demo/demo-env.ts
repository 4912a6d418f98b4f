import { z } from 'zod'
import { MIN_SECRET_LENGTH } from '../../lib/auth/api-keys-setting'
import { ConfigError, type EnvSource } from '../../lib/env'

const DemoEnvSchema = z.object({
  /** Port `npm run demo` serves on. */
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  /** The demo API key's secret; random when unset. */
  DEMO_API_SECRET: z.string().min(MIN_SECRET_LENGTH, `at least ${MIN_SECRET_LENGTH} characters`).optional(),
})

/** The demo script's settings (PORT, DEMO_API_SECRET), validated like the server's. */
export function getDemoEnv(source: EnvSource = process.env) {
  const result = DemoEnvSchema.safeParse({ PORT: source.PORT || undefined, DEMO_API_SECRET: source.DEMO_API_SECRET || undefined })
  if (!result.success)
    throw new ConfigError(`Invalid configuration in ${[...new Set(result.error.issues.map((i) => String(i.path[0])))].join(', ')}`)
  return result.data
}
