import type { Vendor as Provider } from '@lumina/contracts';
import type { ReactNode } from 'react';

const providerTone: Record<Provider, string> = {
  local:
    'bg-emerald-50 text-emerald-700 ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-500/30',
  fal: 'bg-sky-50 text-sky-700 ring-sky-200 dark:bg-sky-500/10 dark:text-sky-300 dark:ring-sky-500/30',
  replicate:
    'bg-amber-50 text-amber-700 ring-amber-200 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-500/30',
  comfyui:
    'bg-violet-50 text-violet-700 ring-violet-200 dark:bg-violet-500/10 dark:text-violet-300 dark:ring-violet-500/30',
  a1111:
    'bg-rose-50 text-rose-700 ring-rose-200 dark:bg-rose-500/10 dark:text-rose-300 dark:ring-rose-500/30',
  openai:
    'bg-zinc-100 text-zinc-700 ring-zinc-300 dark:bg-zinc-500/10 dark:text-zinc-300 dark:ring-zinc-500/30',
};

export interface ModelOptionModel {
  id: string;
  display_name: string;
  description: string;
  provider: Provider;
  available: boolean;
  unavailable_reason: string | null;
}

/**
 * One model as a radio card (Generate's model picker and each Studio tool's): name and price, the
 * provider's badge, a short description; an unavailable model stays listed, greyed, with the reason.
 */
export function ModelOption({
  model,
  group,
  checked,
  price,
  providerLabel,
  unavailableFallback,
  onChange,
}: {
  model: ModelOptionModel;
  /** The radio group's name (one per picker on the page). */
  group: string;
  checked: boolean;
  price: ReactNode;
  providerLabel: ReactNode;
  /** Shown when an unavailable model has no reason of its own. */
  unavailableFallback: ReactNode;
  onChange: (id: string) => void;
}) {
  const reasonId = `${group}-reason-${model.id}`;
  return (
    <label
      className={`flex cursor-pointer flex-col gap-1 rounded-2xl border px-3 py-2.5 text-left transition has-focus-visible:outline-2 has-focus-visible:outline-brand-500 ${
        !model.available
          ? 'cursor-not-allowed border-dashed border-zinc-300 opacity-70 dark:border-zinc-700'
          : checked
            ? 'border-brand-500 bg-brand-50/70 ring-2 ring-brand-500/30 dark:border-brand-400 dark:bg-brand-500/10'
            : 'border-zinc-200 hover:border-brand-300 dark:border-zinc-700 dark:hover:border-brand-500/60'
      }`}
    >
      <input
        type="radio"
        name={group}
        value={model.id}
        checked={checked}
        disabled={!model.available}
        aria-describedby={model.available ? undefined : reasonId}
        onChange={() => onChange(model.id)}
        className="sr-only"
      />
      <span className="flex items-center justify-between gap-2">
        <span className="min-w-0 truncate text-sm font-semibold">{model.display_name}</span>
        <span className="shrink-0 text-xs font-medium text-zinc-500 tabular-nums dark:text-zinc-400">
          {price}
        </span>
      </span>
      <span className="flex items-center gap-2">
        <span
          className={`shrink-0 rounded-full px-2 py-0.5 text-[11px] font-semibold whitespace-nowrap ring-1 ring-inset ${providerTone[model.provider]}`}
        >
          {providerLabel}
        </span>
        {model.available && model.description && (
          <span className="line-clamp-2 text-xs text-zinc-500 dark:text-zinc-400">{model.description}</span>
        )}
      </span>
      {!model.available && (
        <span id={reasonId} className="text-xs text-amber-700 dark:text-amber-300">
          {model.unavailable_reason ?? unavailableFallback}
        </span>
      )}
    </label>
  );
}
