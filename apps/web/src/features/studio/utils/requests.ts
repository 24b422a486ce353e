import {
  AnimateRequest,
  CopyStyleFields,
  EditImageFileFields,
  ProductHoldingFields,
  type Tool,
} from '@lumina/contracts';
import type { ToolForms } from '../stores/studio-store';

export type FieldErrors = Partial<Record<string, string>>;

export type Checked<T> = { ok: true; fields: T } | { ok: false; errors: FieldErrors };

function check<T>(
  result:
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
): Checked<T> {
  if (result.success) return { ok: true, fields: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
  return { ok: false, errors };
}

/** The text fields a tool sends, checked with the same schema the server uses (field names as on the wire). */
export function toolFields(tool: Tool, forms: ToolForms, model: string) {
  switch (tool) {
    case 'edit': {
      const form = forms.edit;
      return check(
        EditImageFileFields.safeParse({
          prompt: form.prompt,
          negative_prompt: form.negativePrompt,
          strength: form.strength,
          seed: form.seed.trim(),
          model,
        }),
      );
    }
    case 'copy_style':
      return check(CopyStyleFields.safeParse({ description: forms.copy_style.description, model }));
    case 'product_holding': {
      const form = forms.product_holding;
      return check(
        ProductHoldingFields.pick({ aspect_ratio: true, prompt: true, model: true }).safeParse({
          aspect_ratio: form.aspectRatio,
          prompt: form.prompt,
          model,
        }),
      );
    }
    case 'upscale':
      return check({ success: true, data: { factor: forms.upscale.factor, model } });
    case 'animate':
      return check(
        AnimateRequest.pick({ prompt: true, duration: true, model: true }).safeParse({
          prompt: forms.animate.prompt,
          duration: forms.animate.duration,
          model,
        }),
      );
  }
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
