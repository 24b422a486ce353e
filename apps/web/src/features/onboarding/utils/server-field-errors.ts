/**
 * The server refuses a bad body with one 400 whose `detail` names each field
 * ("Invalid body: phone: Give the phone number…; country: Choose a country…", plugins/error-handler.ts).
 * This splits it so each message sits under its own field; anything not about a known field stays whole.
 */
export function serverFieldErrors<F extends string>(
  detail: string,
  fields: readonly F[],
): { fields: Partial<Record<F, string>>; rest: string | null } {
  const found: Partial<Record<F, string>> = {};
  const rest: string[] = [];
  const body = detail.replace(/^Invalid body:\s*/, '');
  for (const part of body.split(/;\s+/)) {
    const match = /^([\w.]+):\s+(.+)$/.exec(part);
    const field = match?.[1]?.split('.')[0] as F | undefined;
    if (match && field && fields.includes(field)) found[field] ??= match[2]!;
    else rest.push(part);
  }
  return rest.length === 0
    ? { fields: found, rest: null }
    : { fields: found, rest: Object.keys(found).length ? rest.join('; ') : detail };
}
