/**
 * The agent page sends a pending challenge that is also among the newest challenges once: in the
 * pending page it is its address alone (components/AgentChain.tsx). Here the browser puts the row back.
 */
export function pendingRows<R extends { address: string }>(
  newest: readonly R[],
  pending: readonly (R | string)[],
): R[] {
  const byAddress = new Map(newest.map((x) => [x.address, x]));
  // An address the newest page does not hold cannot come from the server; it is left out, not drawn empty.
  return pending.map((x) => (typeof x === 'string' ? byAddress.get(x) : x)).filter((x) => x !== undefined);
}
