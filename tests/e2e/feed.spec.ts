// The Atom feed (issue 14, first part), read by a real XML parser (Chromium's DOMParser) and
// checked against RFC 4287's rules: what a feed reader would get.
import { SEED_DRAFT_MARKERS } from '../../src/lib/content/seed';
import { expect, test } from './fixtures';

const ATOM = 'http://www.w3.org/2005/Atom';
// RFC 3339 date-time, as Atom requires (§3.3).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

type Parsed = {
  error: string | null;
  root: string;
  namespace: string | null;
  feed: Record<string, number>;
  selfLink: string | null;
  updated: string;
  entries: {
    ids: number;
    titles: number;
    updatedCount: number;
    id: string;
    title: string;
    updated: string;
    published: string;
    link: string | null;
    contentType: string | null;
    content: string;
  }[];
};

test('the feed is valid Atom: required elements, absolute links, newest first, no drafts', async ({
  page,
  request,
  seedPage,
}) => {
  // Hostile text in every field: markup, CDATA ends, and characters XML cannot carry.
  await seedPage({
    slug: 'e2e-feed-hostile',
    title: 'A <b>bold</b> & ]]> \u0001 title',
    body: '</content></entry> \u0008 & <script>x</script>',
  });
  await seedPage({
    slug: 'e2e-feed-newest',
    title: 'Newest in the feed',
    body: 'See [about](/about).',
  });
  await page.goto('/');
  // Feed readers find it from any page.
  await expect(
    page.locator('head link[rel="alternate"][type="application/atom+xml"]'),
  ).toHaveAttribute('href', '/feed.xml');
  const response = await request.get('/feed.xml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/atom+xml; charset=utf-8');
  const xml = await response.text();
  for (const secret of Object.values(SEED_DRAFT_MARKERS)) expect(xml).not.toContain(secret);
  expect(xml).not.toContain('Upcoming feature');

  const parsed: Parsed = await page.evaluate(
    ({ source, ns }) => {
      const doc = new DOMParser().parseFromString(source, 'application/xml');
      const error = doc.getElementsByTagName('parsererror')[0]?.textContent ?? null;
      const root = doc.documentElement;
      const own = (element: Element, name: string) =>
        [...element.children].filter(
          (child) => child.namespaceURI === ns && child.localName === name,
        );
      const text = (element: Element, name: string) => own(element, name)[0]?.textContent ?? '';
      const feed: Record<string, number> = {};
      for (const name of ['id', 'title', 'updated', 'author', 'entry'])
        feed[name] = own(root, name).length;
      return {
        error,
        root: root.localName,
        namespace: root.namespaceURI,
        feed,
        selfLink:
          own(root, 'link')
            .find((link) => link.getAttribute('rel') === 'self')
            ?.getAttribute('href') ?? null,
        updated: text(root, 'updated'),
        entries: own(root, 'entry').map((entry) => ({
          ids: own(entry, 'id').length,
          titles: own(entry, 'title').length,
          updatedCount: own(entry, 'updated').length,
          id: text(entry, 'id'),
          title: text(entry, 'title'),
          updated: text(entry, 'updated'),
          published: text(entry, 'published'),
          link:
            own(entry, 'link')
              .find((link) => (link.getAttribute('rel') ?? 'alternate') === 'alternate')
              ?.getAttribute('href') ?? null,
          contentType: own(entry, 'content')[0]?.getAttribute('type') ?? null,
          content: text(entry, 'content'),
        })),
      };
    },
    { source: xml, ns: ATOM },
  );

  expect(parsed.error).toBeNull();
  expect(parsed.root).toBe('feed');
  expect(parsed.namespace).toBe(ATOM);
  // §4.1.1: exactly one id, title and updated; an author for the feed (entries have none).
  expect(parsed.feed).toMatchObject({ id: 1, title: 1, updated: 1, author: 1 });
  expect(parsed.selfLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/feed\.xml$/);
  expect(parsed.updated).toMatch(DATE_TIME);
  // Posts only (issue 27): the demo's three posts and the two above; its pages are not news.
  expect(parsed.entries.length).toBeGreaterThanOrEqual(5);
  // §4.1.2: one id, title and updated per entry; ids unique; dates RFC 3339; links absolute.
  const ids = new Set<string>();
  for (const entry of parsed.entries) {
    expect(entry).toMatchObject({ ids: 1, titles: 1, updatedCount: 1, contentType: 'html' });
    expect(entry.id).toMatch(/^tag:/);
    ids.add(entry.id);
    expect(entry.updated).toMatch(DATE_TIME);
    expect(entry.published).toMatch(DATE_TIME);
    expect(entry.link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(entry.content).not.toMatch(/(href|src)="\/(?!\/)/);
  }
  expect(ids.size).toBe(parsed.entries.length);
  // Newest first: the page published just now leads, and the feed's updated is its time.
  expect(parsed.entries[0]?.title).toBe('Newest in the feed');
  expect(parsed.updated).toBe(parsed.entries[0]?.updated);
  expect(parsed.entries[0]?.content).toMatch(/href="http:\/\/127\.0\.0\.1:\d+\/about"/);
  // The hostile page is one entry, its title as typed minus what XML cannot carry.
  expect(parsed.entries[1]?.title).toBe('A <b>bold</b> & ]]>  title');
  // Newest first by first publish (a post republished keeps its place, issue 27).
  const times = parsed.entries.map((entry) => Date.parse(entry.published));
  expect([...times].sort((a, b) => b - a)).toEqual(times);
});
