/** Request headers as a webhook route hands them over: Node's record, or fetch's Headers. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | globalThis.Headers;

/** One header's value by its lower-case name (the first, when it is repeated). */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as globalThis.Headers).get === 'function') {
    return (headers as globalThis.Headers).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}
