// Hostile pass 27's findings on statuses and the bare 404, against the server as the README
// starts it: page data answers with its page's status (10); the 404s the front door writes
// itself carry the site's title, language and favicon, in words fit for the page number asked
// (12); a listing's arguments given twice, and a listing in a topic's introduction, are said in
// words (11); an unknown author is a 422 with the typed text kept (14).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addEditor } from '../../src/lib/editors/accounts';
import { formsIn, formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, runFolioCli, startFolio, withStore } from '../harness';

const OWNER = { email: 'owner@example.com', password: 'the owner passphrase' };
const WRITER = { email: 'writer@example.com', password: 'the writer passphrase' };
const flagged = { rsc: '1' };

let folio: RunningFolio;
let owner = '';
let writer = '';

beforeAll(async () => {
  folio = await startFolio();
  const db = await folio.database();
  await addEditor(db, OWNER.email, OWNER.password);
  await addEditor(db, WRITER.email, WRITER.password, { role: 'contributor' });
  owner = (await signInWithForm(folio.url, OWNER.email, OWNER.password)).cookie;
  writer = (await signInWithForm(folio.url, WRITER.email, WRITER.password)).cookie;
}, 60_000);
afterAll(async () => {
  await folio?.stop();
}, 30_000);

const get = (address: string, headers: Record<string, string> = {}) =>
  fetch(`${folio.url}${address}`, { headers, redirect: 'manual' });
const dataAddress = (address: string) => `${address}${address.includes('?') ? '&' : '?'}_rsc=s1`;
/** Text without tags, runs of white space as one. */
const words = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('page data answers with its page’s status (finding 10)', () => {
  test('a search that cannot be run: 400 for the HTML and for its data', async () => {
    for (const [address, said] of [
      ['/?q=*', 'holds no word to search for'],
      ['/?q=%22', 'holds no word to search for'],
      ['/?q=markdown&page=11', 'Search shows the best'],
    ] as const) {
      const html = await get(address);
      expect(html.status, address).toBe(400);
      await html.arrayBuffer();
      const data = await get(dataAddress(address), flagged);
      expect(data.status, address).toBe(400);
      expect(data.headers.get('content-type')).toContain('text/x-component');
      // The payload the router shows the page from, as before.
      expect(await data.text()).toContain(said);
    }
    // A search that runs keeps its 200.
    expect((await get(dataAddress('/?q=markdown'), flagged)).status).toBe(200);
  });

  test('a screen not for the editor’s role, and a signed-out preview: the page’s status', async () => {
    for (const screen of ['topics', 'redirects', 'navigation', 'settings']) {
      const address = `/preview?${screen}`;
      const html = await get(address, { cookie: writer });
      expect(html.status, address).toBe(403);
      expect(await html.text()).toContain('Not for your role');
      const data = await get(dataAddress(address), { ...flagged, cookie: writer });
      expect(data.status, address).toBe(403);
      expect(data.headers.get('cache-control')).toContain('no-store');
      expect(await data.text()).toContain('Not for your role');
      // Signed out: the sign-in form, with the same status either way.
      const anonymous = await get(address);
      expect(anonymous.status).toBe(401);
      await anonymous.arrayBuffer();
      const anonymousData = await get(dataAddress(address), flagged);
      expect(anonymousData.status, address).toBe(401);
      expect(await anonymousData.text()).toContain('Sign in');
      // The Owner's own: 200 both ways.
      const ownersData = await get(dataAddress(address), { ...flagged, cookie: owner });
      expect(ownersData.status, address).toBe(200);
      await ownersData.arrayBuffer();
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

describe('the bare 404 pages (finding 12)', () => {
  const BARE = ['/?page=0', '/guides?page=0', `/media/${'a'.repeat(32)}/card-1.png%00`];

  test('in the site’s title, language and favicon once Site settings say them', async () => {
    // Before: Folio's defaults, and the site's default title.
    const before = await get('/?page=0');
    expect(before.status).toBe(404);
    const beforeHtml = await before.text();
    expect(beforeHtml).toContain('<html lang="en" dir="ltr">');
    expect(beforeHtml).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');

    const icon = 'c'.repeat(32);
    await (await folio.database()).query`
      INSERT INTO media (hash, filename, alt, format, width, height, bytes, created_at)
      VALUES (${icon}, ${'icon.png'}, ${'The icon'}, 'png', 64, 64, 100,
              ${new Date().toISOString()})`;
    const settings = await withStore(folio, (store) => store.getSiteSettings());
    await withStore(folio, (store) =>
      store.saveSiteSettings({
        ...settings,
        title: 'Harbour & Notes',
        language: 'he-IL',
        favicon: icon,
      }),
    );
    for (const address of BARE) {
      const response = await get(address);
      expect(response.status, address).toBe(404);
      expect(response.headers.get('content-type')).toContain('text/html');
      const html = await response.text();
      expect(html, address).toContain('<title>Page not found · Harbour &#38; Notes</title>');
      expect(html, address).toContain('<html lang="he-IL" dir="rtl">');
      expect(html, address).toContain(`<link rel="icon" href="/media/${icon}">`);
      expect(html, address).not.toContain('/favicon.svg');
      // The site's name heads the page, a link home.
      expect(html, address).toContain('<header><a href="/">Harbour &#38; Notes</a></header>');
    }
    // Signed in, the same page (the render cache is not in the way).
    expect(await (await get('/?page=0', { cookie: owner })).text()).toContain(
      'Harbour &#38; Notes',
    );
    await withStore(folio, (store) => store.saveSiteSettings(settings));
    expect(await (await get('/?page=0')).text()).toContain('<html lang="en" dir="ltr">');
  });

  test('its words fit the page number asked for', async () => {
    const said = async (address: string) => {
      const response = await get(address);
      expect(response.status, address).toBe(404);
      return words(await response.text());
    };
    for (const address of ['/?page=0', '/guides?page=0', '/?page=000']) {
      const text = await said(address);
      expect(text, address).toContain('there is no page 0');
      expect(text, address).not.toContain('not a number');
    }
    const tooMany = await said('/?page=99999999');
    expect(tooMany).toContain('No list on this site has that many pages');
    expect(tooMany).not.toContain('not a number');
    expect(await said('/guides?page=02')).toContain('?page=2');
    expect(await said('/guides?page=abc')).toContain('is not a number');
    // Nothing of what was asked is written back.
    expect(await said('/guides?page=%3Cscript%3E')).not.toContain('<script>');
    // Page data of such an address: a 404 as before.
    expect((await get('/guides?page=0&_rsc=s1', flagged)).status).toBe(404);
  });
});

describe('words where there were none (findings 11 and 14)', () => {
  async function draft(fields: Record<string, string>, button = 'Create draft') {
    const page = await (await get('/preview?new', { cookie: owner })).text();
    return submitForm(`${folio.url}/preview?new`, await formWithButton(page, button), {
      cookie: owner,
      set: fields,
    });
  }

  test('a post saved with an author no one is: a 422 in words, the text kept', async () => {
    const refused = await draft({
      title: 'Ghost written',
      slug: 'ghost-written',
      body: 'The typed text.',
      kind: 'post',
      authors: 'ghost',
    });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(html).toContain('No author is at /ghost.');
    expect(html).toContain('The typed text.');
    expect((await get('/preview/ghost-written', { cookie: owner })).status).toBe(404);
  });

  test('a listing’s argument given twice: the preview says so; visitors see nothing of it', async () => {
    const made = await draft({
      title: 'Twice asked',
      slug: 'twice-asked',
      body: 'Before.\n\n{{ posts limit=2 limit=3 }}\n\n{{ posts topic=a topic=b }}\n\nAfter.',
    });
    expect(made.status).toBe(303);
    const preview = words(await (await get('/preview/twice-asked', { cookie: owner })).text());
    expect(preview).toContain('limit is given twice');
    expect(preview).toContain('topic is given twice');
    const page = await (await get('/preview/twice-asked', { cookie: owner })).text();
    const answer = await submitForm(
      `${folio.url}/preview/twice-asked`,
      await formWithButton(page, 'Publish this draft'),
      { cookie: owner },
    );
    expect(answer.status).toBe(303);
    const published = await get('/twice-asked');
    expect(published.status).toBe(200);
    const text = words(await published.text());
    expect(text).toContain('Before.');
    expect(text).toContain('After.');
    expect(text).not.toContain('{{');
    expect(text).not.toContain('given twice');
  });

  test('a listing in a topic’s introduction is refused in words, the text kept', async () => {
    const made = await draft({
      title: 'Harbour post',
      slug: 'harbour-post',
      body: 'Text.',
      kind: 'post',
      topics: 'Harbours',
    });
    expect(made.status).toBe(303);
    const id = await withStore(folio, async (store) => (await store.getTopic('harbours'))?.id);
    const screen = await (await get('/preview?topics', { cookie: owner })).text();
    const form = (await formsIn(screen)).find((f) =>
      f.fields.some(([n, v]) => n === 'id' && v === String(id)),
    );
    if (!form) throw new Error('no form for the topic Harbours');
    const typed = 'Ships and quays.\n\n{{ posts limit=3 }}';
    const refused = await submitForm(`${folio.url}/preview?topics`, form, {
      cookie: owner,
      set: { intro: typed },
    });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(words(html)).toContain('not in a topic’s introduction');
    expect(html).toContain('Ships and quays.');
    expect(html).toContain('{{ posts limit=3 }}');
    // Without the line, it saves.
    const saved = await submitForm(`${folio.url}/preview?topics`, form, {
      cookie: owner,
      set: { intro: 'Ships and quays.' },
    });
    expect(saved.status).toBe(303);
    // One saved before the Topics screen refused them: left out of the page, not printed.
    await (await folio.database()).query`
      UPDATE topics SET intro_html = ${'<p>Ships and quays.</p>\n<p>{{ posts limit=3 }}</p>\n'}
      WHERE id = ${id}`;
    const topicPage = words(await (await get('/preview/harbours', { cookie: owner })).text());
    expect(topicPage).toContain('Ships and quays.');
    expect(topicPage).not.toContain('{{');
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

// Hostile pass 27, 14: `redirect import` of a file over the limit said "huge.csv:0: …" and
// "one line was refused".
test('a redirects file over the limit is refused as a file, with its count', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-huge-'));
  const huge = path.join(dir, 'huge.csv');
  const lines = Array.from({ length: 50_001 }, (_, i) => `/old-${i},/about,301`);
  writeFileSync(huge, `from,to,status\n${lines.join('\n')}\n`);
  const refused = await runFolioCli(['redirect', 'import', huge], {
    databaseUrl: folio.databaseUrl,
  });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(
    'huge.csv: At most 50000 redirects per file; this one holds 50001: split it in two or more.',
  );
  expect(refused.stderr).not.toContain(':0:');
  expect(refused.stderr).not.toContain('one line');
  expect(refused.stderr).toContain('nothing imported: the file was refused');
  expect((await get('/old-1')).status).toBe(404);
}, 60_000);
