// npm run build:fresh — `next build` unless .next already holds a build of the current sources.
import { ensureFreshBuild } from './devnet/fresh-build'

const built = await ensureFreshBuild()
if (!built) console.log('The build in .next matches the sources: not rebuilding.')
