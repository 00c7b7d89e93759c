// The hostile pass of issue 27 on topics, against the server as the README starts it: the
// topics screen past a thousand topics (searched, 50 at a time), its names held to the editor's
// rule and its forms to their version, Contributors choosing among existing topics, a renamed
// topic's feed following it and a redirect to its old address flagged, and the home page's
// editor without fields it would drop.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor, createSession } from '../../src/lib/editors/accounts';
import type { Role } from '../../src/lib/editors/permissions';
import { SESSION_COOKIE } from '../../src/lib/http/routes';
import { formsIn, formWithButton, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

let folio: RunningFolio;
const cookies = new Map<Role, string>();
const TOPICS = 1_030;
const nameOf = (i: number) => `Bulk ${String(i).padStart(4, '0')}`;

beforeAll(async () => {
  folio = await startFolio();
  const db = await folio.database();
  for (const role of ['owner', 'author', 'contributor'] as const) {
    const editor = await addEditor(db, `${role}@topics.example`, 'the topics passphrase', {
      role: role === 'owner' ? undefined : role,
    });
    const session = await createSession(db.query, editor.id);
    cookies.set(role, `${SESSION_COOKIE}=${session.id}`);
  }
  // More topics than the screen listed before (1000), written at once.
  const at = new Date().toISOString();
  for (let i = 0; i < TOPICS; i += 1)
    await db.query`INSERT INTO topics (name, slug, intro, intro_html, created_at, updated_at)
      VALUES (${nameOf(i)}, ${`bulk-${i}`}, '', '', ${at}, ${at})`;
}, 120_000);
afterAll(async () => {
  await folio?.stop();
});

const get = (path: string, role: Role | null = 'owner') =>
  fetch(`${folio.url}${path}`, {
    headers: role ? { cookie: cookies.get(role) ?? '' } : {},
    redirect: 'manual',
  });

const count = (html: string, what: string) => html.split(what).length - 1;
/** Whether the page says `what` (React's text separators aside); never the page in a failure. */
const says = (html: string, what: string) => html.replaceAll('<!-- -->', '').includes(what);

/** The "More topics" link of a topics screen, as the page writes it. */
function moreLink(html: string): string | null {
  const href = /<a href="([^"]+)" rel="next">More topics<\/a>/.exec(html)?.[1];
  return href ? href.replaceAll('&amp;', '&') : null;
}

describe('the topics screen at scale', () => {
  test('50 topics a screen by name, every one reachable, searched by name or address', async () => {
    const first = await get('/preview?topics');
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(count(html, '>Save topic<')).toBe(50);
    const db = await folio.database();
    const [all] = await db.query<{ n: number | string }>`SELECT COUNT(*) AS n FROM topics`;
    const total = Number(all?.n);
    // The site's own topics (the seed's) and the bulk ones.
    expect(total).toBeGreaterThanOrEqual(TOPICS);
    expect(says(html, `${total} topics in all.`)).toBe(true);
    // Bounded: before, the page held a form for each of 1000 topics (1.8 MB).
    expect(html.length).toBeLessThan(400_000);
    // Walk the screens to the end: the last topic (past the 1000th) is reached.
    let next = moreLink(html);
    let screens = 1;
    let last = html;
    const seen = new Set([...html.matchAll(/<h2>([^<]+)<\/h2>/g)].map(([, name]) => name ?? ''));
    while (next) {
      const page = await get(next);
      expect(page.status).toBe(200);
      last = await page.text();
      for (const [, name] of last.matchAll(/<h2>([^<]+)<\/h2>/g)) seen.add(name ?? '');
      next = moreLink(last);
      screens += 1;
    }
    expect(screens).toBe(Math.ceil(total / 50));
    expect(count(last, '>Save topic<')).toBe(total % 50 || 50);
    expect(seen.has(nameOf(TOPICS - 1))).toBe(true);
    expect(seen.size).toBe(total);
    // Searched: by name, and by address.
    const found = await (await get('/preview?topics&find=bulk+1029')).text();
    expect(count(found, '>Save topic<')).toBe(1);
    expect(says(found, nameOf(1029))).toBe(true);
    const bySlug = await (await get('/preview?topics&find=bulk-1028')).text();
    expect(count(bySlug, '>Save topic<')).toBe(1);
    const none = await (await get('/preview?topics&find=nothing+like+it')).text();
    expect(says(none, 'No topic matches.')).toBe(true);
  });

  test('the editor suggests the newest 200 topic names', async () => {
    const html = await (await get('/preview?new')).text();
    const datalist = /<datalist id="topic-names">(.*?)<\/datalist>/s.exec(html)?.[1] ?? '';
    expect(count(datalist, '<option')).toBe(200);
    expect(says(datalist, nameOf(TOPICS - 1))).toBe(true);
    expect(!says(datalist, nameOf(0))).toBe(true);
  });
});

describe('saving a topic on the screen', () => {
  const topicForm = async (name: string) => {
    const html = await (
      await get(`/preview?topics&find=${encodeURIComponent(name.toLowerCase())}`)
    ).text();
    return formWithButton(html, 'Save topic');
  };

  test('a name the editor would refuse is refused here too, in words, the text kept', async () => {
    for (const name of ['!!!', '😀']) {
      const answer = await submitForm(`${folio.url}/preview?topics`, await topicForm(nameOf(5)), {
        cookie: cookies.get('owner'),
        set: { name, intro: 'Typed intro' },
      });
      expect(answer.status).toBe(422);
      const html = await answer.text();
      expect(says(html, 'is not a topic name: use at least one letter or digit.')).toBe(true);
      expect(says(html, 'Typed intro')).toBe(true);
    }
    const kept = await (await get(`/preview?topics&find=${nameOf(5)}`)).text();
    expect(says(kept, `>${nameOf(5)}</h2>`)).toBe(true);
  });

  test('a form without its version (forged: no stale-tab check) is refused 400', async () => {
    const answer = await submitForm(`${folio.url}/preview?topics`, await topicForm(nameOf(6)), {
      cookie: cookies.get('owner'),
      set: { updated_at: '', intro: 'Forged' },
    });
    expect(answer.status).toBe(400);
    const db = await folio.database();
    const [row] = await db.query<{ intro: string }>`
      SELECT intro FROM topics WHERE name = ${nameOf(6)}`;
    expect(row?.intro).toBe('');
  });
});

describe('who creates topics', () => {
  const writeAs = async (role: Role, slug: string, topics: string) => {
    const form = await formWithButton(
      await (await get('/preview?new', role)).text(),
      'Create draft',
    );
    return submitForm(`${folio.url}/preview?new`, form, {
      cookie: cookies.get(role),
      set: { title: slug, slug, kind: 'post', topics },
    });
  };
  const topicNamed = async (name: string) => {
    const db = await folio.database();
    const rows = await db.query<{ slug: string }>`SELECT slug FROM topics WHERE name = ${name}`;
    return rows[0]?.slug ?? null;
  };

  test('a Contributor chooses among existing topics; a new name is refused in words, kept', async () => {
    const refused = await writeAs('contributor', 'contributor-post', `${nameOf(3)}, Pricing`);
    expect(refused.status).toBe(403);
    const html = await refused.text();
    expect(says(html, 'There is no topic “Pricing” yet. You cannot create topics')).toBe(true);
    // What was typed is in the field still.
    const form = (await formsIn(html)).find((candidate) =>
      candidate.fields.some(([name]) => name === 'topics'),
    );
    expect(form?.fields.find(([name]) => name === 'topics')?.[1]).toBe(`${nameOf(3)}, Pricing`);
    expect(await topicNamed('Pricing')).toBeNull();
    expect(
      await withStore(folio, (store) => store.getPage('contributor-post', { draft: true })),
    ).toBeNull();
    // Existing topics, in any case: saved.
    const saved = await writeAs('contributor', 'contributor-post', nameOf(3).toUpperCase());
    expect(saved.status).toBe(303);
    // An Author makes new ones.
    expect((await writeAs('author', 'author-post', 'Pricing')).status).toBe(303);
    expect(await topicNamed('Pricing')).toBe('pricing');
  });
});

describe('a renamed topic', () => {
  test('its feed follows it (301), and a redirect to its old address is flagged', async () => {
    await withStore(folio, async (store) => {
      await store.saveDraft(
        {
          slug: 'coffee-notes',
          title: 'Coffee notes',
          summary: '',
          body: 'Beans.',
          expectedVersion: null,
          editor: null,
          post: { kind: 'post', topics: ['Cafe'] },
        },
        { publish: true },
      );
      await store.addRedirect({ from: '/old12', to: '/cafe', status: 301 });
    });
    expect((await get('/feed.xml?topic=cafe', null)).status).toBe(200);
    const form = await formWithButton(
      await (await get('/preview?topics&find=cafe')).text(),
      'Save topic',
    );
    const renamed = await submitForm(`${folio.url}/preview?topics`, form, {
      cookie: cookies.get('owner'),
      set: { slug: 'cafe-new' },
    });
    expect(renamed.status).toBe(303);
    expect((await get('/cafe', null)).headers.get('location')).toBe('/cafe-new');
    const feed = await get('/feed.xml?topic=cafe', null);
    expect(feed.status).toBe(301);
    expect(feed.headers.get('location')).toBe('/feed.xml?topic=cafe-new');
    const followed = await get('/feed.xml?topic=cafe-new', null);
    expect(followed.status).toBe(200);
    expect(says(await followed.text(), 'Coffee notes')).toBe(true);
    // A topic never there is still a 404.
    expect((await get('/feed.xml?topic=never-was', null)).status).toBe(404);
    const redirects = await (await get('/preview?redirects&find=old12')).text();
    expect(says(redirects, '<strong>Renamed:</strong> /cafe now redirects to')).toBe(true);
    expect(says(redirects, '<code>/cafe-new</code>')).toBe(true);
  });
});

describe('the home page’s editor', () => {
  test('shows no Topics or Authors fields, which its save would drop', async () => {
    const home = await get('/preview/home?edit');
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(says(html, 'it has no topics or authors.')).toBe(true);
    const form = await formWithButton(html, 'Save draft');
    expect(form.fields.some(([name]) => name === 'topics' || name === 'authors')).toBe(false);
    const about = await (await get('/preview/about?edit')).text();
    expect(
      (await formWithButton(about, 'Save draft')).fields.some(([name]) => name === 'topics'),
    ).toBe(true);
  });
});
