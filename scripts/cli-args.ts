/**
 * Takes `--name value` out of a script's arguments (so what remains are the positional ones and
 * the bare flags) and returns the value, or undefined when the option is absent.
 */
export function takeOption(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  return i >= 0 ? args.splice(i, 2)[1] : undefined
}
