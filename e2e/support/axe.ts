import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Serious or critical axe findings on the page as it is now. axe must really have looked: contrast and
 * link names (and whatever `mustCheck` names) were checked, not skipped.
 */
export async function seriousViolations(page: Page, mustCheck: string[] = []) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  // axe really looked: contrast and link names (and image alternatives where asked) were checked.
  const checked = [...results.passes, ...results.incomplete, ...results.violations].map((r) => r.id);
  expect(['color-contrast', 'link-name', ...mustCheck].filter((id) => !checked.includes(id))).toEqual([]);
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(' ')} :: ${n.failureSummary?.split('\n')[1] ?? ''}`),
    }));
}
