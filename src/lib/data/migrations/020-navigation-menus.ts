import type { Query } from '../db';
import type { Migration } from './index';

// Menus (issue 27): the header's navigation was a JSON list of page ids under the settings key
// `site_navigation` (issue 25); it becomes a list of entries, `{"page": id}` for each of those
// pages in the same order (no label: the page's title, so an old site's header reads exactly as
// before), beside which an entry may carry its own label or be an external link
// (`{"url", "label"}`). The footer's menu is a new key, `site_footer_menu`, absent until an
// editor makes one. No table changes: settings rows are plain text on both engines (decision
// 0037). Ids that are not whole numbers were never shown, and are dropped.
async function convertNavigation(q: Query): Promise<void> {
  const [row] = await q<{ value: string }>`
    SELECT value FROM settings WHERE key = 'site_navigation'`;
  if (!row) return;
  let stored: unknown;
  try {
    stored = JSON.parse(row.value);
  } catch {
    stored = null;
  }
  const entries = Array.isArray(stored)
    ? stored.flatMap((item) => {
        if (Number.isSafeInteger(item) && (item as number) > 0) return [{ page: item as number }];
        // Already an entry (a database that ran newer code before this migration): kept.
        if (typeof item === 'object' && item !== null) return [item];
        return [];
      })
    : [];
  await q`UPDATE settings SET value = ${JSON.stringify(entries)} WHERE key = 'site_navigation'`;
}

export const migration020: Migration = {
  id: 20,
  name: 'navigation-menus',
  sqlite: '',
  postgres: '',
  backfill: convertNavigation,
};
