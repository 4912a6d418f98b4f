import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'

/** The command line does not fit the script's options (an unknown option, a missing value, …). */
export class UsageError extends Error {
  override name = 'UsageError'
}

/**
 * Parses a script's arguments with node:util's parseArgs, strictly: an unknown option, an option
 * without its value, or a positional argument where none are taken is a UsageError.
 * @throws UsageError with parseArgs' own explanation
 */
export function parseOptions<const O extends ParseArgsOptionsConfig>(args: string[], options: O, opts: { positionals?: boolean } = {}) {
  try {
    return parseArgs({ args, options, allowPositionals: opts.positionals ?? false, strict: true })
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
}

/**
 * parseOptions on process.argv for a CLI entry point: on a usage error it prints what is wrong and
 * the usage line to stderr and exits with code 2.
 */
export function parseCommandLine<const O extends ParseArgsOptionsConfig>(usage: string, options: O, opts: { positionals?: boolean } = {}) {
  try {
    return parseOptions(process.argv.slice(2), options, opts)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    return usageExit(usage, err.message)
  }
}

/** Prints the problem (when given) and the usage line to stderr, and exits with code 2. */
export function usageExit(usage: string, problem?: string): never {
  console.error(problem ? `${problem}\n${usage}` : usage)
  process.exit(2)
}
