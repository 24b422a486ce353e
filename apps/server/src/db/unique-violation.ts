/**
 * Whether a database error (or one it wraps, as drizzle does) is a unique-constraint violation (SQLSTATE
 * 23505): the loser of a race for a unique row, which callers answer as "already exists", never a 5xx.
 */
export function isUniqueViolation(err: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
