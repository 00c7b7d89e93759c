// The content API's tests (issue 29, docs/decisions/0044) share one site: published posts
// with topics and a byline, and beside them everything visitors must never see through the
// API — a draft only, a published post's newer draft, a scheduled post, an unpublished and a
// deleted one — and a post hidden from search engines. Plus the helpers that walk a listing to
// its end and check an answer holds nothing hidden.
import { expect } from 'bun:test';
import { SEED_DRAFT_MARKERS } from '../src/lib/content/seed';
import { addEditor } from '../src/lib/editors/accounts';
import { signInWithForm } from './forms';
import { type RunningFolio, withStore } from './harness';

export const SECRET = 'API-DRAFT-SECRET-51d2';
/** Slugs visitors cannot see: none may appear in any answer. */
export const HIDDEN_SLUGS = [
  'api-draft-only',
  'api-scheduled',
  'api-unpublished',
  'api-deleted',
  'upcoming-feature',
  'hidden-topic',
];
export const POSTS = 23;

export const text = (title: string, body = `${title} body.`) => ({
  title,
  summary: `${title}.`,
  body,
});

/** Makes the site on `folio`; returns a signed-in editor's session cookie. */
export async function seedApiSite(folio: RunningFolio): Promise<string> {
  const EDITOR = { email: 'api@example.com', password: 'the api passphrase' };
  const editor = await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
  const cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
  await withStore(folio, async (store) => {
    await store.saveAuthorProfile(editor.id, {
      slug: 'ann-api',
      name: 'Ann Api',
      bio: 'Writes the API posts.',
      photo: '',
      links: 'https://example.com/ann',
    });
    for (let n = 1; n <= POSTS; n += 1)
      await store.putPage(
        {
          slug: `api-post-${n}`,
          ...text(`API post ${n}`),
          post: {
            kind: 'post',
            topics: [n % 2 ? 'Alpha' : 'Beta'],
            ...(n % 3 === 0 ? { authors: ['ann-api'] } : {}),
          },
        },
        { publish: true },
      );
    // A draft only, with a topic nobody publishes under.
    await store.putPage({
      slug: 'api-draft-only',
      ...text('Draft only', SECRET),
      post: { kind: 'post', topics: ['Hidden Topic'], authors: ['ann-api'] },
    });
    // A published post with a newer draft: the API shows the published text.
    await store.putPage(
      {
        slug: 'api-changed',
        ...text('Changed, published'),
        post: { kind: 'post', topics: ['Alpha'] },
      },
      { publish: true },
    );
    await store.putPage({
      slug: 'api-changed',
      ...text(`Changed, draft ${SECRET}`, SECRET),
      post: { kind: 'post', topics: ['Hidden Topic'] },
    });
    // Scheduled for tomorrow: nothing of it until then.
    await store.putPage({
      slug: 'api-scheduled',
      ...text('Scheduled', SECRET),
      post: { kind: 'post', topics: ['Alpha'] },
    });
    await store.schedulePublish('api-scheduled', new Date(Date.now() + 86_400_000));
    // Published, then taken down; published, taken down and deleted.
    for (const slug of ['api-unpublished', 'api-deleted']) {
      await store.putPage(
        { slug, ...text(slug, SECRET), post: { kind: 'post', topics: ['Alpha'] } },
        { publish: true },
      );
      await store.unpublish(slug);
    }
    await store.discardDraft('api-deleted');
    // Hidden from search engines: public all the same, and says so.
    await store.saveDraft({
      slug: 'api-quiet',
      ...text('Quiet post'),
      expectedVersion: null,
      editor: null,
      post: { kind: 'post', topics: ['Beta'] },
      seo: {
        title: 'Quiet, for search',
        description: '',
        image: null,
        canonical: '',
        noindex: true,
      },
    });
    await store.publish('api-quiet');
  });
  return cookie;
}

export type Listing = {
  items: { slug: string }[];
  next_cursor: string | null;
  next: string | null;
};

/** Every page of a listing from `url`, following `next`; each answer's text is checked. */
export async function walk(url: string, check: (body: string) => void, headers: HeadersInit = {}) {
  const slugs: string[] = [];
  let address: string | null = url;
  let pages = 0;
  while (address !== null) {
    const response = await fetch(address, { headers });
    const body = await response.text();
    check(body);
    if (response.status !== 200) return { status: response.status, slugs, body };
    const listing = JSON.parse(body) as Listing;
    slugs.push(...listing.items.map((item) => item.slug));
    address = listing.next;
    pages += 1;
    if (pages > 200) throw new Error(`${url}: more than 200 pages`);
  }
  return { status: 200, slugs, body: '' };
}

/** The answer holds no hidden text or slug. */
export function noSecrets(body: string) {
  expect(body).not.toContain(SECRET);
  expect(body).not.toContain(SEED_DRAFT_MARKERS.changedPage);
  expect(body).not.toContain(SEED_DRAFT_MARKERS.draftOnlyPage);
  for (const slug of HIDDEN_SLUGS) expect(body).not.toContain(`"${slug}"`);
}
