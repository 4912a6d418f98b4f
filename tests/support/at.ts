/** `values[index]` (a negative index counts from the end), or a test failure naming the index. */
export function at<T>(values: { readonly length: number; at(index: number): T | undefined }, index: number): T {
  const value = values.at(index)
  if (value === undefined) throw new Error(`no element ${index} in a list of ${values.length}`)
  return value
}
