import { z } from 'zod'

// The pages' CSP has no 'unsafe-eval'. zod compiles object parsers with `Function` unless told not
// to, probing `Function('')` when the first object schema is built; the browser refuses the probe and
// reports a CSP violation. The interpreted parsers run the same checks. Imported first by every
// client module that builds or uses schemas, so it runs before lib/core/contract/schemas is evaluated.
z.config({ jitless: true })
