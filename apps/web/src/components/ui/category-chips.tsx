/** One published category and how many examples it holds (GET /api/example_images/categories). */
export interface CategoryCount {
  name: string;
  count: number;
}

/**
 * A row of toggle chips to filter by example category: "all" first, then each category with its
 * count. Used by the Gallery's Examples tab and the public Examples page; renders nothing without
 * categories.
 */
export function CategoryChips({
  categories,
  value,
  onChange,
  label,
  allLabel,
}: {
  categories: readonly CategoryCount[];
  value?: string;
  onChange: (category?: string) => void;
  /** The group's accessible name. */
  label: string;
  allLabel: string;
}) {
  if (categories.length === 0) return null;
  const chip = (selected: boolean) =>
    `shrink-0 rounded-full px-3 py-1.5 text-sm font-medium ring-1 ring-inset transition ${
      selected
        ? 'bg-brand-600 text-white ring-brand-600 dark:bg-brand-500 dark:text-zinc-950 dark:ring-brand-500'
        : 'bg-white text-zinc-700 ring-zinc-200 hover:ring-brand-300 dark:bg-zinc-900 dark:text-zinc-300 dark:ring-zinc-700'
    }`;
  return (
    <div className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1" role="group" aria-label={label}>
      <button
        type="button"
        aria-pressed={!value}
        onClick={() => onChange(undefined)}
        className={chip(!value)}
      >
        {allLabel}
      </button>
      {categories.map((category) => (
        <button
          key={category.name}
          type="button"
          aria-pressed={value === category.name}
          onClick={() => onChange(category.name)}
          className={chip(value === category.name)}
        >
          {category.name}
          {/* Full-strength text: a dimmed count on the selected chip fails contrast (axe, e2e/a11y.spec.ts). */}
          <span className="ml-1.5 text-xs tabular-nums">{category.count}</span>
        </button>
      ))}
    </div>
  );
}
