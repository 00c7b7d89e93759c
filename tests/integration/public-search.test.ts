// Visitors' search at `/?q=` (issue 27), through the real server on the run's engine: ranked
// published pages with highlights, drafts never, `noindex` and never stored, a helpful empty
// state, and hostile queries each answered quickly with a clear page, never a 5xx.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { MAX_URL_LENGTH } from '../../src/lib/http/front-door';
import { type RunningFolio, startFolio, withStore } from '../harness';

/** A hostile query is answered within this (on a loaded two-core machine; ~10–50 ms here). */
const FAST_MS = 1500;

describe('/?q= search for visitors', () => {
  let folio: RunningFolio;
  beforeAll(async () => {
    folio = await startFolio();
    await withStore(folio, async (store) => {
      await store.putPage(
        {
          slug: 'gardening',
          title: 'Gardening notes',
          summary: 'What grew this year.',
          body: 'Tomatoes were **published** in the almanac. <script>alert(1)</script>',
        },
        { publish: true },
      );
      await store.putPage(
        { slug: 'secret', title: 'Secret', summary: '', body: 'Tomatoes zeppelin draft.' },
        { publish: false },
      );
    });
  }, 60_000);
  afterAll(() => folio?.stop(), 30_000);

  const get = (query: string) => fetch(`${folio.url}/?${query}`);

  test('results: ranked, highlighted, published only, noindex, never stored', async () => {
    const response = await get('q=tomato');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
    expect(response.headers.get('cache-control')).toContain('no-store');
    const html = await response.text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain('href="/gardening"');
    expect(html).toContain('<mark>Tomatoes</mark>');
    expect(html).toContain('1 page matches.');
    expect(html).not.toContain('href="/secret"');
    // The query stays in the box.
    expect(html).toMatch(/name="q"[^>]*value="tomato"/);
    // Page text shown in a snippet is text, never markup.
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(await (await get('q=zeppelin')).text()).toContain('No page matches');
  });

  test('stemming: "publishing" finds "published"', async () => {
    expect(await (await get('q=publishing')).text()).toContain('href="/gardening"');
  });

  test('no query: a search form; no results: say so and suggest fewer words', async () => {
    const empty = await get('q=');
    expect(empty.status).toBe(200);
    const form = await empty.text();
    expect(form).toContain('Type a few words');
    expect(form).toContain('<form');
    const none = await (await get('q=tomatoes+walrus')).text();
    expect(none).toContain('No page matches');
    expect(none).toContain('Try fewer words');
  });

  test('a reflected query is text, never markup', async () => {
    const html = await (await get(`q=${encodeURIComponent('<script>alert(2)</script> x')}`)).text();
    // (React's page data carries it inside a script as a string, `</script>` escaped.)
    expect(html).not.toContain('<script>alert(2)</script>');
    expect(html).toContain('&lt;script&gt;alert(2)');
  });

  test('pages past the results: 404; past the bounded offset: 400', async () => {
    const past = await get('q=tomatoes&page=2');
    expect(past.status).toBe(404);
    expect(await past.text()).toContain('No more results');
    const far = await get('q=tomatoes&page=11');
    expect(far.status).toBe(400);
    expect(await far.text()).toContain('Add a word');
  });

  test('hostile queries: each a quick, clear answer, never a 5xx', async () => {
    const cases: [string, string, number, string][] = [
      // Past the front door's limit on an address: its own clear refusal.
      ['10 000 characters', `q=${'tomatoes'.repeat(1250)}`, 414, ''],
      [
        'the longest address',
        `q=${Array.from({ length: 1200 }, (_, i) => `w${i}`).join('+')}`.slice(
          0,
          MAX_URL_LENGTH - 100,
        ),
        200,
        'first 20 words',
      ],
      ['one long word', `q=${'w'.repeat(MAX_URL_LENGTH - 100)}`, 200, 'first 200 characters'],
      [
        '500 terms',
        `q=${Array.from({ length: 500 }, (_, i) => `w${i}`).join('+')}`,
        200,
        'first 20 words',
      ],
      ['only operators', `q=${encodeURIComponent('"" * : ^ ( ) AND-OR | & ! <-> ~')}`, 200, ''],
      ['only punctuation', `q=${encodeURIComponent('*** ::: ---')}`, 400, 'holds no word'],
      ['NUL and controls', 'q=toma%00toes%07%1B', 200, ''],
      ['invalid UTF-8 escapes', 'q=%C3%28%FF%FE%ED%A0%80', 400, 'holds no word'],
      ['a lone percent', 'q=%', 400, 'holds no word'],
      ['quotes unbalanced', `q=${encodeURIComponent('"tomatoes almanac')}`, 200, ''],
      ['a phrase', `q=${encodeURIComponent('"tomatoes were published"')}`, 200, '<mark>'],
    ];
    for (const [name, query, status, says] of cases) {
      const started = performance.now();
      const response = await get(query);
      const html = await response.text();
      const took = performance.now() - started;
      expect({ name, status: response.status }).toEqual({ name, status });
      if (says) expect({ name, says: html.includes(says) }).toEqual({ name, says: true });
      expect({ name, fast: took < FAST_MS }).toEqual({ name, fast: true });
      expect(html).not.toContain('\u0000');
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('an unpublished page leaves the results at once', async () => {
    await withStore(folio, async (store) => {
      await store.putPage(
        { slug: 'brief', title: 'Brief', summary: '', body: 'Kumquat season.' },
        { publish: true },
      );
    });
    expect(await (await get('q=kumquat')).text()).toContain('href="/brief"');
    await withStore(folio, (store) => store.unpublish('brief'));
    expect(await (await get('q=kumquat')).text()).toContain('No page matches');
  });

  test('the home page itself is unchanged without q, and the header has the search box', async () => {
    const home = await fetch(`${folio.url}/`);
    const html = await home.text();
    expect(home.headers.get('x-robots-tag')).toBeNull();
    expect(html).toContain('<search aria-label="Site search"');
    expect(html).toMatch(/<label[^>]*for="header-search-q"/);
  });
});
