// Every editor screen and a public page pass axe-core's WCAG 2.2 AA rules (issue 26), in light
// and dark, on a desktop and a phone width (docs/decisions/0030). axe checks what a machine can
// (contrast, names, landmarks, ids, ARIA); keyboard use and reading order are the other specs'.
// Nothing here differs by engine: with both halves it runs once, in the PostgreSQL half
// (playwright.config.ts).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const SCREENS: { name: string; path: string; signedIn: boolean }[] = [
  { name: 'the dashboard', path: '/preview', signedIn: true },
  // A long page: its editor scrolls (axe checks a scrolling region can be reached by keyboard).
  { name: 'the editor', path: '/preview/writing-in-markdown?edit', signedIn: true },
  { name: 'a preview', path: '/preview/release-notes', signedIn: true },
  { name: 'the site settings', path: '/preview?settings', signedIn: true },
  { name: 'the menus', path: '/preview?navigation', signedIn: true },
  { name: 'the media library', path: '/preview?media', signedIn: true },
  { name: 'the help', path: '/preview?help', signedIn: true },
  { name: 'the topics', path: '/preview?topics', signedIn: true },
  { name: 'the audit trail', path: '/preview?audit', signedIn: true },
  { name: 'the API keys', path: '/preview?api-keys', signedIn: true },
  // A topic's page: the demo's Guides (issue 27).
  { name: 'a topic page', path: '/guides', signedIn: false },
  { name: 'the sign-in form', path: '/preview', signedIn: false },
  { name: 'a public page', path: '/getting-started', signedIn: false },
];

/** axe's findings in a line each: the rule, and where (enough to find and fix it). */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id}: ${node.target.join(' ')} — ${node.failureSummary?.split('\n').slice(1).join(' ').trim()}`,
    ),
  );
}

// Each screen is loaded once and checked four times — light and dark, 1280 and 390 px — by
// switching the emulated colour scheme and the viewport under it: the media queries and the
// layout follow at once, and four loads of each screen cost the suite a minute for nothing.
const LOOKS = (['light', 'dark'] as const).flatMap((colorScheme) =>
  [1280, 390].map((width) => ({ colorScheme, width })),
);

for (const screen of SCREENS) {
  test(`${screen.name} passes axe (WCAG 2.2 AA), light and dark, 1280 and 390 px`, async ({
    page,
    signIn,
  }) => {
    if (screen.signedIn) await signIn(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    const response = await page.goto(screen.path);
    expect(response?.status()).toBeLessThan(500);
    // After hydration: what an editor works with is the enhanced screen.
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    // The editor screen with its Markdown editor in place of the plain text box.
    if (screen.path.endsWith('?edit'))
      await expect(page.locator('.body-codemirror .cm-content')).toBeVisible();
    const found: string[] = [];
    for (const { colorScheme, width } of LOOKS) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      for (const violation of await violations(page))
        found.push(`${colorScheme}, ${width} px: ${violation}`);
    }
    expect(found).toEqual([]);
  });
}
