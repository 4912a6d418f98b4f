import { z } from 'zod'

// The pages' CSP has no 'unsafe-eval'. zod compiles object parsers with `Function` unless told not to,
// probing `Function('')` when the first object schema is built; the browser refuses the probe and reports a
// CSP violation.
z.config({ jitless: true })
