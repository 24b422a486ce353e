export type FieldErrors = Partial<Record<string, string>>;

export type Checked<T> = { ok: true; fields: T } | { ok: false; errors: FieldErrors };

/** A schema's answer as the form shows it: the fields to send, or the first message per field. */
export function check<T>(
  result:
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
): Checked<T> {
  if (result.success) return { ok: true, fields: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
  return { ok: false, errors };
}

/** Appends text fields first and files last, so a server that streams the form sees every field before a file. */
export function toFormData(
  fields: Record<string, string | number | undefined | null>,
  files: Record<string, File>,
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null && value !== '') form.append(name, String(value));
  }
  for (const [name, file] of Object.entries(files)) form.append(name, file, file.name);
  return form;
}
