/** Order-independent key of an agent pair, shared by the graph and the live state. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}
