/** Numbers as the inspector shows them. */

export function tokens(count: number): string {
  return count.toLocaleString('en-US');
}

/** Credits to six decimals at most (the ledger's millionths), trailing zeros dropped. */
export function credits(amount: number): string {
  const text = amount.toFixed(6).replace(/\.?0+$/, '');
  return `${text} credit${text === '1' ? '' : 's'}`;
}
