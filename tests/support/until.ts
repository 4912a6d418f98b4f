/**
 * Polls `check` on real timers until it passes, for up to `timeout` ms. For tests that fake only
 * `Date`: vi.waitFor would move a faked clock on by its polling interval, this leaves it standing.
 */
export async function until(check: () => unknown, { timeout = 10_000 } = {}): Promise<void> {
  const deadline = performance.now() + timeout
  for (;;) {
    try {
      await check()
      return
    } catch (err) {
      if (performance.now() > deadline) throw err
      await new Promise((r) => setTimeout(r, 20))
    }
  }
}
