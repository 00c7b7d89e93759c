// Editors preview a topic's or an author's page before it is public (issue 27's leftovers),
// inside /preview only, against the server as the README starts it: signed out, the preview is
// the sign-in form; the public address stays a 404 while nothing of it is published; the
// preview shows the introduction or bio as saved and the published posts only; the topics and
// profile screens link to it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import { addEditor } from '../../src/lib/editors/accounts';
import { signInWithForm } from '../forms';
import { type RunningFolio, startFolio, withStore as withStoreOf } from '../harness';

const EDITOR = { email: 'previews@example.com', password: 'the previews passphrase' };
const TOPIC = { name: 'Quiet Harbours', slug: 'quiet-harbours', intro: 'Saved topic intro.' };
const AUTHOR = { slug: 'mara-tide', name: 'Mara Tide', bio: 'Saved author bio.' };

describe('topic and author pages in preview', () => {
  let folio: RunningFolio;
  let cookie = '';
  const withStore = <T>(work: (store: ContentStore) => Promise<T>) => withStoreOf(folio, work);
  const get = (address: string, signedIn = true) =>
    fetch(`${folio.url}${address}`, {
      headers: signedIn ? { cookie } : {},
      redirect: 'manual',
    });
  const post = (slug: string, title: string, publish: boolean) =>
    withStore((store) =>
      store.saveDraft(
        {
          slug,
          title,
          summary: '',
          body: `${title} body.`,
          expectedVersion: null,
          editor: EDITOR.email,
          post: { kind: 'post', topics: [TOPIC.name], authors: [AUTHOR.slug] },
        },
        { publish },
      ),
    );

  beforeAll(async () => {
    folio = await startFolio();
    const editor = await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
    cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
    await withStore(async (store) => {
      await store.saveAuthorProfile(editor.id, { ...AUTHOR, photo: '', links: '' });
    });
    // A draft post makes the topic and names the author: neither page is public yet.
    await post('harbour-draft-post', 'Harbour draft post', false);
    await withStore(async (store) => {
      const topic = await store.getTopic(TOPIC.slug);
      if (!topic) throw new Error('the draft made no topic');
      await store.updateTopic(topic.id, { name: TOPIC.name, slug: TOPIC.slug, intro: TOPIC.intro });
    });
  }, 60_000);
  afterAll(() => folio?.stop(), 30_000);

  test('before anything is published: preview shows the saved text, the public address is a 404', async () => {
    for (const [slug, text] of [
      [TOPIC.slug, TOPIC.intro],
      [AUTHOR.slug, AUTHOR.bio],
    ] as const) {
      const visitor = await get(`/${slug}`, false);
      expect(visitor.status).toBe(404);
      expect(await visitor.text()).not.toContain(text);

      const signedOut = await get(`/preview/${slug}`, false);
      expect(signedOut.status).toBe(401);
      const signedOutHtml = await signedOut.text();
      expect(signedOutHtml).toContain('Sign in');
      expect(signedOutHtml).not.toContain(text);

      const preview = await get(`/preview/${slug}`);
      expect(preview.status).toBe(200);
      expect(preview.headers.get('cache-control')).toContain('no-store');
      expect(preview.headers.get('x-robots-tag')).toContain('noindex');
      const html = await preview.text();
      expect(html).toContain(text);
      expect(html).toContain('none yet: visitors do not see this page');
      // A draft is not listed: the preview shows what visitors will get.
      expect(html).not.toContain('Harbour draft post');
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('the topics and profile screens link to the previews, posts or not', async () => {
    const topics = await (await get('/preview?topics')).text();
    expect(topics).toContain(`href="/preview/${TOPIC.slug}"`);
    const profile = await (await get('/preview?profile')).text();
    expect(profile).toContain(`href="/preview/${AUTHOR.slug}"`);
  });

  test('once a post is published, preview and public page list it (and not the draft)', async () => {
    await post('harbour-published-post', 'Harbour published post', true);
    for (const slug of [TOPIC.slug, AUTHOR.slug]) {
      const html = await (await get(`/preview/${slug}`)).text();
      expect(html).toContain('Harbour published post');
      expect(html).toContain('href="/preview/harbour-published-post"');
      expect(html).not.toContain('Harbour draft post');
      expect(html).not.toContain('none yet');
      expect((await get(`/${slug}`, false)).status).toBe(200);
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
