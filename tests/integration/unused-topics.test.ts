// Issue 27's loose end: a topic nobody uses any more — its last post unpublished, or published
// again without it — is gone for visitors: its page and feed answer 404 (also when they were
// cached), and neither the sitemap, the site's feed (a <category> per topic) nor a post names
// it. (Listings show no topics.) Against the server as the README
// starts it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type RunningFolio, startFolio, waitFor, withStore } from '../harness';

let folio: RunningFolio;

beforeAll(async () => {
  folio = await startFolio();
  await withStore(folio, async (store) => {
    const settings = await store.getSiteSettings();
    await store.saveSiteSettings({ ...settings, homeShows: 'posts' });
    for (const [slug, topic] of [
      ['lonely-post', 'Lonely Topic'],
      ['fading-post', 'Fading Topic'],
    ] as const)
      await store.putPage(
        {
          slug,
          title: slug,
          summary: '',
          body: 'A post.',
          post: { kind: 'post', topics: [topic] },
        },
        { publish: true },
      );
  });
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

const get = (path: string) => fetch(`${folio.url}${path}`, { redirect: 'manual' });
const text = async (path: string) => (await get(path)).text();

/** Requests `path` until the render cache answers it (a hit). */
async function cached(path: string) {
  await waitFor(
    async () => {
      const response = await get(path);
      await response.arrayBuffer();
      return response.headers.get('x-folio-cache') === 'hit' ? true : undefined;
    },
    { what: `${path} cached` },
  );
}

/** Where visitors could find topic `slug`: its page, its feed, and everything that names it. */
async function seenOf(slug: string, post: string) {
  return {
    page: (await get(`/${slug}`)).status,
    feed: (await get(`/feed.xml?topic=${slug}`)).status,
    sitemap: (await text('/sitemap.xml')).includes(`/${slug}</loc>`),
    siteFeed: (await text('/feed.xml')).includes(`<category term="${slug}"`),
    post: (await get(`/${post}`)).status === 200 && (await text(`/${post}`)).includes(`/${slug}"`),
  };
}

describe('a topic nobody uses any more', () => {
  test('its last post unpublished: a 404 for page and feed, named nowhere', async () => {
    const everywhere = {
      page: 200,
      feed: 200,
      sitemap: true,
      siteFeed: true,
      post: true,
    };
    expect(await seenOf('lonely-topic', 'lonely-post')).toEqual(everywhere);
    await cached('/lonely-topic');
    await withStore(folio, (store) => store.unpublish('lonely-post'));
    expect(await seenOf('lonely-topic', 'lonely-post')).toEqual({
      page: 404,
      feed: 404,
      sitemap: false,
      siteFeed: false,
      post: false,
    });
    // The editors still have it (their topics screen), for a post to come.
    expect(await withStore(folio, (store) => store.getTopic('lonely-topic'))).not.toBeNull();
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('its last post published again without it: the same', async () => {
    expect((await seenOf('fading-topic', 'fading-post')).page).toBe(200);
    await cached('/fading-topic');
    await withStore(folio, (store) =>
      store.putPage(
        {
          slug: 'fading-post',
          title: 'fading-post',
          summary: '',
          body: 'A post.',
          post: { kind: 'post', topics: [] },
        },
        { publish: true },
      ),
    );
    expect(await seenOf('fading-topic', 'fading-post')).toEqual({
      page: 404,
      feed: 404,
      sitemap: false,
      siteFeed: false,
      post: false,
    });
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
