// Owns the demo content a new database starts with: enough to show every page state.
import 'server-only';
import type { Database } from '../data/db';
import type { ContentStore } from './content';

/** Text that exists only in drafts; tests search every public response for it. */
export const SEED_DRAFT_MARKERS = {
  changedPage: 'DRAFT-ONLY-TEXT-7f3a',
  draftOnlyPage: 'DRAFT-SECRET-TEXT-9c1e',
} as const;

const EDITOR = 'seed';

// Timeless pages; the rest are posts, with topics (issue 27).
const PAGES = new Set(['home', 'about', 'contact', 'style-guide']);
const TOPICS: Record<string, string[]> = {
  'getting-started': ['Guides'],
  'writing-in-markdown': ['Guides', 'Markdown'],
  'release-notes': ['Releases'],
};

const pages: { slug: string; title: string; summary: string; body: string }[] = [
  {
    slug: 'home',
    title: 'Welcome to Folio',
    summary: 'A small, fast publishing site that editors change without a redeploy.',
    body: `Folio serves pages that read well on any device, load fast, and work without JavaScript.
Editors sign in, preview the whole site with their drafts, and publish when they are ready.

## Where to start

- [Getting started](/getting-started) walks through the first edit.
- [Writing in Markdown](/writing-in-markdown) shows everything a page can contain.
- [Editorial guidelines](/editorial-guidelines) is how we write here.
- [Release notes](/release-notes) lists what changed recently.

## What makes it different

1. **Drafts stay private.** Nothing you save is public until you press Publish.
2. **Every publish is kept.** Old versions remain in the revision history.
3. **Fast by default.** Published pages are served from memory and cache well.

Questions? See [Contact](/contact).
`,
  },
  {
    slug: 'getting-started',
    title: 'Getting started',
    summary: 'Your first edit in Folio, from signing in to publishing, in five minutes.',
    body: `This guide takes you from a fresh install to your first published change.

## 1. Sign in

Open [/preview](/preview) and sign in with the editor account your administrator created.
The preview shows every page as it will look once published, with a banner on top.

## 2. Edit a page

Choose **Edit** in the banner. Change the title, the summary or the body, then **Save draft**.
Your draft is visible in preview only; visitors still see the published version.

## 3. Publish

When the preview looks right, choose **Publish**. The change is live on the next request.

> Tip: share a read-only preview link with a reviewer who has no account. It expires after
> 24 hours by default.

## Commands for administrators

\`\`\`sh
bun run folio editor add editor@example.com
bun run folio page list
bun run folio page publish getting-started
\`\`\`
`,
  },
  {
    slug: 'writing-in-markdown',
    title: 'Writing in Markdown',
    summary: 'Headings, lists, links, tables and code: everything a Folio page can contain.',
    body: `Folio pages are written in [Markdown](https://commonmark.org/help/), a plain-text format
that turns into clean HTML.

## Text

Write paragraphs as plain text. Use *emphasis*, **strong emphasis** and \`inline code\`.

## Lists

- Unordered lists start with a hyphen.
- Items can contain [links](/getting-started).
  - And they can nest.

1. Ordered lists use numbers.
2. The numbers need not be exact.

## Tables

| Element | Syntax | Notes |
|---|---|---|
| Heading | \`## Title\` | Levels 2 to 4 suit most pages |
| Link | \`[text](/slug)\` | Internal links start with a slash |
| Image | \`![alt](/image.png)\` | Always describe the image |

## Code

\`\`\`ts
export function greet(name: string): string {
  return \`Hello, \${name}!\`;
}
\`\`\`

## What is not allowed

Raw HTML is shown as text, and links may only point to web pages, mail addresses or other
pages of this site. That keeps every page safe for visitors.
`,
  },
  {
    slug: 'style-guide',
    title: 'Editorial guidelines',
    summary: 'How we write: clear, short, and kind to the reader.',
    body: `Good pages answer the reader's question in the first paragraph.

## Voice

- Write as you would explain it to a colleague.
- Prefer short sentences and common words.
- Say what to do before saying why.

## Structure

1. Start with the answer.
2. Use headings a reader can scan.
3. End with where to go next.

## Links

Link words that say where the link goes: "see the [release notes](/release-notes)", not
"click here".
`,
  },
  {
    slug: 'release-notes',
    title: 'Release notes',
    summary: 'What changed in Folio, newest first.',
    body: `## 0.1.0

- Published pages served from SQLite, rendered with React Server Components.
- Preview of the whole site with drafts, for signed-in editors.
- Sitemap, robots.txt and a health check for operators.

## Upgrading

No steps needed: the database migrates itself at start-up.
`,
  },
  {
    slug: 'about',
    title: 'About',
    summary: 'Who makes Folio and why.',
    body: `Folio is made by a small team that wanted a publishing tool that is quick to run, quick to
read, and impossible to leak a draft from.

It stands on [Bun](https://bun.sh), [Waku](https://waku.gg) and [SQLite](https://sqlite.org).
`,
  },
  {
    slug: 'contact',
    title: 'Contact',
    summary: 'How to reach the people behind this site.',
    body: `Write to [hello@example.com](mailto:hello@example.com). We answer within two working days.

## Reporting a problem

If a page shows an error with a **digest**, include the digest in your message: it lets us
find exactly what went wrong.
`,
  },
];

/**
 * Fills an empty database with demo content, once in its life: the first process to claim the
 * seed does it (two instances starting together on PostgreSQL seed once), and a site whose
 * pages were all deleted is not seeded again. Returns false (and does nothing) otherwise.
 */
export async function seedDemoContent(db: Database, store: ContentStore): Promise<boolean> {
  const claimed = await db.transaction(
    (q) => q`INSERT INTO settings (key, value) VALUES ('seeded_at', ${new Date().toISOString()})
             ON CONFLICT (key) DO NOTHING RETURNING key`,
  );
  if (claimed.length === 0 || (await store.pageCount()) > 0) return false;
  for (const page of pages)
    await store.putPage(
      {
        ...page,
        post: PAGES.has(page.slug)
          ? { kind: 'page', topics: [] }
          : { kind: 'post', topics: TOPICS[page.slug] ?? [] },
      },
      { publish: true, editor: EDITOR },
    );

  // A published page renamed once: /style-guide answers 301 → /editorial-guidelines.
  await store.renameSlug('style-guide', 'editorial-guidelines');

  // A published page with a newer draft that visitors must never see.
  const releaseNotes = await store.getPage('release-notes', { draft: true });
  if (releaseNotes) {
    await store.saveDraft({
      slug: 'release-notes',
      title: 'Release notes',
      summary: 'What changed in Folio, newest first.',
      body: `## 0.2.0 (unreleased)\n\n- Scheduled publishing. ${SEED_DRAFT_MARKERS.changedPage}\n\n${releaseNotes.bodyMarkdown}`,
      expectedVersion: releaseNotes.version,
      editor: EDITOR,
    });
  }

  // A short header: the rest of the site is reached from the home page.
  const navigation: number[] = [];
  for (const slug of ['getting-started', 'writing-in-markdown', 'about', 'contact']) {
    const page = await store.getPage(slug, { draft: false });
    if (page) navigation.push(page.id);
  }
  const settings = await store.getSiteSettings();
  await store.saveSiteSettings({ ...settings, navigation });

  // A page that exists only as a draft.
  await store.saveDraft({
    slug: 'upcoming-feature',
    title: 'Upcoming feature',
    summary: 'Not announced yet.',
    body: `This page describes a feature that is not announced. ${SEED_DRAFT_MARKERS.draftOnlyPage}`,
    expectedVersion: null,
    editor: EDITOR,
  });
  return true;
}
