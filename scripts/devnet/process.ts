import type { ChildProcess } from 'node:child_process'

/** SIGTERM a child and resolve once it has exited (at once if it already has). */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

/**
 * Polls `probe` every 100 ms until it resolves; fails when the child exits or `timeoutMs` passes
 * (then the child is stopped). `describe` says what was waited for, with the child's output.
 */
export async function waitForChild(
  child: ChildProcess,
  probe: () => Promise<unknown>,
  timeoutMs: number,
  describe: () => string,
): Promise<void> {
  const started = Date.now()
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}): ${describe()}`)
    try {
      await probe()
      return
    } catch {
      if (Date.now() - started > timeoutMs) {
        await stopChild(child)
        throw new Error(`no answer within ${timeoutMs} ms: ${describe()}`)
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}
