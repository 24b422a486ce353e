export type Affordability = { ok: true } | { ok: false; missing: number };

/** Whether the known balance covers the cost; an unknown balance (still loading) never blocks. */
export function affordability(cost: number, balance: number | undefined): Affordability {
  if (balance === undefined || balance >= cost) return { ok: true };
  return { ok: false, missing: cost - balance };
}
