// GET /bench-bare/[segment] – Next's own floor: the same constant as /bench-floor/[segment], with a dynamic
// segment, and outside the middleware's matcher (middleware.ts). Only in bench builds.
export { GET } from '../../bench-floor/route.bench'

export const dynamic = 'force-dynamic'
