// @ts-check
// node scripts/lock-platforms.mjs – run after `npm install`.
// Our registry lacks some platform builds that packages list as optionalDependencies (anvil's macOS
// and Windows binaries, tailwind oxide and next swc for other platforms). `npm install` then leaves
// them out of package-lock.json, and `npm ci` refuses that lock ("Missing: … from lock file"). This
// records each missing one with the version its parent asks for and the os/cpu its name states, so
// npm ci skips it on other platforms and fetches it by name and version where it applies.
import { readFileSync, writeFileSync } from 'node:fs'

const file = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(file, 'utf8'))
const packages = lock.packages
const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd']
/** @type {[string, string][]} name fragment, npm cpu */
const CPU = [
  ['arm64', 'arm64'],
  ['amd64', 'x64'],
  ['x64', 'x64'],
  ['ia32', 'ia32'],
  ['arm-', 'arm'],
  ['wasm32', 'wasm32'],
]
let added = 0
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const parentDir = path === '' ? '' : `${path}/`
    if (packages[`${parentDir}node_modules/${name}`] || packages[`node_modules/${name}`]) continue
    const base = name.slice(name.lastIndexOf('/') + 1)
    const os = OS.filter((o) => base.includes(o))
    const cpu = CPU.filter(([k]) => base.includes(k))
      .map(([, v]) => v)
      .slice(0, 1)
    if (os.length === 0 && cpu.length === 0) throw new Error(`cannot tell the platform of ${name}; add it by hand`)
    packages[`node_modules/${name}`] = {
      version: spec.replace(/^[\^~=]/, ''),
      ...(cpu.length ? { cpu } : {}),
      ...(os.length ? { os } : {}),
      optional: true,
    }
    added++
  }
}
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n')
console.log(`package-lock.json: recorded ${added} optional platform package(s) this registry lacks`)
