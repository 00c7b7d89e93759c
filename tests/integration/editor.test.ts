// The editor of issue 13 through its no-JavaScript forms, against the server as the README
// starts it: Preview keeps the typed text, Publish publishes what was typed, confirmations,
// restore, settings, and the new preview routes' privacy.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import { BODY_MAX, REQUEST_BODY_MAX_BYTES } from '../../src/lib/content/field-limits';
import { SEED_DRAFT_MARKERS } from '../../src/lib/content/seed';
import { addEditor } from '../../src/lib/editors/accounts';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, seededDatabase, startFolio, withStore } from '../harness';

const OWNER = { email: 'writer@example.com', password: 'the writer passphrase' };

describe('the editor without JavaScript', () => {
  let folio: RunningFolio;
  let cookie = '';
  const page = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${folio.url}${path}`, { headers: { cookie, ...headers }, redirect: 'manual' });
  const store = <T>(work: (store: ContentStore) => Promise<T>) => withStore(folio, work);

  beforeAll(async () => {
    folio = await startFolio({ database: await seededDatabase() });
    await addEditor(await folio.database(), OWNER.email, OWNER.password);
    cookie = (await signInWithForm(folio.url, OWNER.email, OWNER.password)).cookie;
  }, 60_000);
  afterAll(async () => {
    await folio?.stop();
  });

  test('Preview renders the typed text beside the form and keeps it in the form', async () => {
    await store((s) =>
      s.putPage({ slug: 'nojs-preview', title: 'No JS', summary: '', body: 'Before.' }),
    );
    const form = await formWithButton(
      await (await page('/preview/nojs-preview?edit')).text(),
      'Preview',
    );
    const response = await submitForm(`${folio.url}/preview/nojs-preview?edit`, form, {
      cookie,
      button: 'Preview',
      set: { body: 'Typed: **PREVIEW-MARK** & more' },
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(paneOf(html)).toContain('<strong>PREVIEW-MARK</strong>');
    expect(await fieldOf(html, 'body')).toBe('Typed: **PREVIEW-MARK** & more');
    // Nothing was saved.
    expect(await draftBody('nojs-preview')).toBe('Before.');
  });

  test('a refused save (empty title) shows the refusal and keeps every typed field', async () => {
    await store((s) =>
      s.putPage({ slug: 'nojs-refused', title: 'Refused', summary: '', body: 'Before.' }),
    );
    const form = await formWithButton(
      await (await page('/preview/nojs-refused?edit')).text(),
      'Save draft',
    );
    const response = await submitForm(`${folio.url}/preview/nojs-refused?edit`, form, {
      cookie,
      button: 'Save draft',
      set: { title: '', summary: 'A typed summary', body: 'A typed body.' },
    });
    // Refused as bad input (422), with the form, the reason and the text.
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(await fieldOf(html, 'summary')).toBe('A typed summary');
    expect(await fieldOf(html, 'body')).toBe('A typed body.');
    expect(await draftBody('nojs-refused')).toBe('Before.');
  });

  test('Publish from the editor publishes what was typed, not the last saved text', async () => {
    await store((s) =>
      s.putPage({ slug: 'nojs-publish', title: 'Publish', summary: '', body: 'Saved text.' }),
    );
    const form = await formWithButton(
      await (await page('/preview/nojs-publish?edit')).text(),
      'Save draft',
    );
    const response = await submitForm(`${folio.url}/preview/nojs-publish?edit`, form, {
      cookie,
      set: { intent: 'publish', body: 'Typed and published at once.' },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/preview/nojs-publish?notice=published');
    const visitor = await fetch(`${folio.url}/nojs-publish`);
    expect(await visitor.text()).toContain('Typed and published at once.');
  });

  test('delete asks on a page of its own, and the page is gone only after the answer', async () => {
    await store((s) =>
      s.putPage({ slug: 'nojs-delete', title: 'Delete me', summary: '', body: 'x' }),
    );
    const banner = await (await page('/preview/nojs-delete')).text();
    expect(banner).toContain('href="/preview/nojs-delete?confirm=delete"');
    const confirmation = await page('/preview/nojs-delete?confirm=delete');
    expect(confirmation.status).toBe(200);
    expect(confirmation.headers.get('cache-control')).toBe('private, no-store');
    const html = await confirmation.text();
    expect(html).toContain('Delete “Delete me” for good?');
    expect(await draftBody('nojs-delete')).toBe('x');
    const response = await submitForm(
      `${folio.url}/preview/nojs-delete?confirm=delete`,
      await formWithButton(html, 'Delete for good'),
      { cookie },
    );
    expect(response.status).toBe(303);
    expect(await draftBody('nojs-delete')).toBeUndefined();
  });

  // Issue 24: the history lists versions without their text and reads only the one or two a
  // view shows or compares; Show, Changes and the compare form still work, for this page only.
  test('history: Changes compares two versions, Show shows one, only of this page', async () => {
    const ids = await store(async (s) => {
      const base = { slug: 'nojs-compare', title: 'Compare', summary: '' };
      await s.putPage({ ...base, body: 'Alpha words.' }, { publish: true });
      await s.putPage({ ...base, body: 'Omega words.' }, { publish: true });
      await s.putPage(
        { slug: 'nojs-elsewhere', title: 'Elsewhere', summary: '', body: 'Secret elsewhere.' },
        { publish: true },
      );
      const of = async (slug: string) =>
        s.listRevisions((await s.getPage(slug, { draft: true }))?.id ?? -1);
      return { compare: await of('nojs-compare'), elsewhere: await of('nojs-elsewhere') };
    });
    const [newest, oldest] = ids.compare.map((revision) => revision.id);
    const history = await (await page('/preview/nojs-compare?history')).text();
    expect(history).toContain('Published 2 times, newest first.');
    // The list names versions; no body is on it until one is asked for.
    expect(history).not.toContain('Alpha words.');
    expect(history).toContain(
      // Compare opens at the first change (#first-change, issue 26).
      `href="/preview/nojs-compare?history&amp;from=${oldest}&amp;to=${newest}#first-change"`,
    );

    const changes = await (
      await page(`/preview/nojs-compare?history&from=${oldest}&to=${newest}`)
    ).text();
    expect(changes).toContain('version 1 (');
    expect(changes).toContain('<del>Alpha</del>');
    expect(changes).toContain('<ins>Omega</ins>');
    const shown = await (await page(`/preview/nojs-compare?history&rev=${oldest}`)).text();
    expect(shown).toContain('Alpha words.');
    expect(shown).toContain('Restore as draft');

    // Another page's version, by its id, is neither shown nor compared here.
    const other = ids.elsewhere[0]?.id;
    const foreign = await (await page(`/preview/nojs-compare?history&rev=${other}`)).text();
    expect(foreign).not.toContain('Secret elsewhere.');
    const crossed = await (
      await page(`/preview/nojs-compare?history&from=${other}&to=${newest}`)
    ).text();
    expect(crossed).toContain('Those versions are not in this page’s history.');
    expect(crossed).not.toContain('Secret elsewhere.');
  });

  test('history: restore an older version as the draft, visitors keep the published one', async () => {
    await store(async (s) => {
      const base = { slug: 'nojs-history', title: 'History', summary: '' };
      await s.putPage({ ...base, body: 'First words.' }, { publish: true });
      await s.putPage({ ...base, body: 'Second words.' }, { publish: true });
    });
    const history = await (await page('/preview/nojs-history?history')).text();
    expect(history).toContain('Published 2 times, newest first.');
    const oldest = [
      ...history.matchAll(/href="(\/preview\/nojs-history\?history&amp;rev=\d+)"/g),
    ].at(-1)?.[1];
    expect(oldest).toBeDefined();
    const shown = await (await page((oldest ?? '').replaceAll('&amp;', '&'))).text();
    expect(shown).toContain('First words.');
    const response = await submitForm(
      `${folio.url}${(oldest ?? '').replaceAll('&amp;', '&')}`,
      await formWithButton(shown, 'Restore as draft'),
      { cookie },
    );
    expect(response.status).toBe(303);
    expect(await draftBody('nojs-history')).toBe('First words.');
    expect(await (await fetch(`${folio.url}/nojs-history`)).text()).toContain('Second words.');
  });

  test('restoring the version visitors see says there is nothing to publish', async () => {
    // Offered while a draft sits over the live version: restoring it replaces the draft with
    // the live text, which leaves no draft at all.
    await store(async (s) => {
      const base = { slug: 'nojs-same', title: 'Same', summary: '' };
      await s.putPage({ ...base, body: 'Only words.' }, { publish: true });
      await s.putPage({ ...base, body: 'A draft over it.' });
    });
    const history = await (await page('/preview/nojs-same?history')).text();
    const newest = /href="(\/preview\/nojs-same\?history&amp;rev=\d+)"/.exec(history)?.[1] ?? '';
    const shown = await (await page(newest.replaceAll('&amp;', '&'))).text();
    const response = await submitForm(
      `${folio.url}${newest.replaceAll('&amp;', '&')}`,
      await formWithButton(shown, 'Restore as draft'),
      { cookie },
    );
    const after = await (await page(response.headers.get('location') ?? '')).text();
    expect(after).toContain('there is no draft to publish');
    expect(after).not.toContain('That version is the draft now');
  });

  test('site settings show to visitors on their next request, cached pages included', async () => {
    const before = await store((s) => s.getSiteSettings());
    try {
      expect(await (await fetch(`${folio.url}/about`)).text()).toContain(before.title);
      const form = await formWithButton(
        await (await page('/preview?settings')).text(),
        'Save settings',
      );
      const response = await submitForm(`${folio.url}/preview?settings`, form, {
        cookie,
        set: { title: 'Renamed Site', footer: 'A new footer line.' },
      });
      expect(response.status).toBe(303);
      const after = await (await fetch(`${folio.url}/about`)).text();
      expect(after).toContain('Renamed Site');
      expect(after).toContain('A new footer line.');
    } finally {
      await store((s) => s.saveSiteSettings(before));
    }
  });

  // Issue 24: a NUL in the settings was a 500 on PostgreSQL (and stored on SQLite, to break
  // `db copy` later); bidi overrides and zero-width characters were stored in titles too.
  test('settings and a page title typed with NUL, bidi overrides and zero-width characters are saved clean', async () => {
    const before = await store((s) => s.getSiteSettings());
    try {
      const form = await formWithButton(
        await (await page('/preview?settings')).text(),
        'Save settings',
      );
      const response = await submitForm(`${folio.url}/preview?settings`, form, {
        cookie,
        set: {
          title: 'Clean\u0000 Site\u202e',
          tagline: 'A \u200btag\u2066line\ufeff',
          footer: 'Foot\u0000er\u200d line\u0007',
        },
      });
      expect(response.status).toBe(303);
      const saved = await store((s) => s.getSiteSettings());
      expect([saved.title, saved.tagline, saved.footer]).toEqual([
        'Clean Site',
        'A tagline',
        'Footer line',
      ]);
    } finally {
      await store((s) => s.saveSiteSettings(before));
    }

    await store((s) =>
      s.putPage({ slug: 'nojs-invisible', title: 'Before', summary: '', body: 'Before.' }),
    );
    const editor = await formWithButton(
      await (await page('/preview/nojs-invisible?edit')).text(),
      'Save draft',
    );
    const saved = await submitForm(`${folio.url}/preview/nojs-invisible?edit`, editor, {
      cookie,
      button: 'Save draft',
      set: {
        title: 'gpj.\u202eexe\u200b\u0000 name',
        summary: 'Sum\u0000mary',
        body: 'Body\u0000.',
      },
    });
    expect(saved.status).toBe(303);
    const draft = await store((s) => s.getPage('nojs-invisible', { draft: true }));
    expect([draft?.title, draft?.summary, draft?.bodyMarkdown]).toEqual([
      'gpj.exe name',
      'Summary',
      'Body.',
    ]);
  });

  test('signed out, the editor-only actions refuse and reveal nothing', async () => {
    const html = await (await page('/preview/upcoming-feature?edit')).text();
    const form = await formWithButton(html, 'Save draft');
    const response = await submitForm(`${folio.url}/preview/upcoming-feature?edit`, form, {
      set: { intent: 'preview', body: '<script>alert(1)</script>' },
    });
    expect(response.status).toBe(401);
    const answer = await response.text();
    // No draft, and no preview of the posted text: only that text handed back, escaped.
    expect(answer).not.toContain(SEED_DRAFT_MARKERS.draftOnlyPage);
    expect(answer).toContain('&lt;script&gt;alert(1)&lt;/script&gt;</textarea>');
    expect(answer).not.toContain('<script>alert(1)</script>');
    expect(answer).not.toContain('Preview as visitors will see it');
  });

  test('a body over the request limit gets a page saying so, never a bare 413 or a 500', async () => {
    const form = await formWithButton(
      await (await page('/preview/about?edit')).text(),
      'Save draft',
    );
    const response = await submitForm(`${folio.url}/preview/about?edit`, form, {
      cookie,
      set: { body: 'x'.repeat(REQUEST_BODY_MAX_BYTES + 1) },
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('Too large to save: nothing was saved.');
    expect(html).toContain('go back (your browser keeps what you typed)');
    // Between the body's limit and the request's: read, refused as a field, the text kept.
    const long = 'y'.repeat(BODY_MAX + 1);
    const refused = await submitForm(`${folio.url}/preview/about?edit`, form, {
      cookie,
      set: { body: long },
    });
    expect(refused.status).toBe(422);
    expect(await fieldOf(await refused.text(), 'body')).toBe(long);
  });

  test('a body sent without a length (chunked) is held to its form’s limit as it is read', async () => {
    // What the README says of bodies without a Content-Length: counted as they arrive, and
    // refused at the same limit as a declared one (not the upload's, as before issue 24).
    const form = await formWithButton(
      await (await page('/preview/about?edit')).text(),
      'Save draft',
    );
    const chunked = async (bodyLength: number) => {
      const fields = new FormData();
      for (const [name, value] of form.fields)
        fields.append(name, name === 'body' ? 'z'.repeat(bodyLength) : value);
      const encoded = new Response(fields);
      const type = encoded.headers.get('content-type') ?? '';
      const bytes = new Uint8Array(await encoded.arrayBuffer());
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64 * 1024)
            controller.enqueue(bytes.subarray(at, at + 64 * 1024));
          controller.close();
        },
      });
      return fetch(`${folio.url}/preview/about?edit`, {
        method: 'POST',
        body: stream,
        headers: { cookie, origin: folio.url, 'content-type': type },
        redirect: 'manual',
      });
    };
    // Over the body's length, under the request's limit: read, a field error, the text kept.
    const long = await chunked(BODY_MAX + 1);
    expect(long.status).toBe(422);
    expect((await fieldOf(await long.text(), 'body'))?.length).toBe(BODY_MAX + 1);
    // Over the form's limit (once an upload's room was granted to any body without a length).
    const over = await chunked(REQUEST_BODY_MAX_BYTES + 1);
    expect(over.status).toBe(413);
    expect(await over.text()).toContain('Too large to save: nothing was saved.');
    const huge = await chunked(12 * 1024 * 1024);
    expect(huge.status).toBe(413);
    expect(await huge.text()).toContain('Too large to save: nothing was saved.');
  });

  test('delete says what it ends: a page published before loses its history, and says so', async () => {
    await store(async (s) => {
      await s.putPage(
        { slug: 'once-live', title: 'Once live', summary: '', body: 'x' },
        { publish: true },
      );
      await s.unpublish('once-live');
    });
    const html = await (await page('/preview/once-live?confirm=delete')).text();
    expect(html).toContain(
      'It is not published now, but it was once: its text and its whole history will be gone.',
    );
    expect(html).not.toContain('never published');
    // A command the page's state does not offer: nothing to confirm, no form.
    const live = await (await page('/preview/about?confirm=delete')).text();
    expect(live).toContain('Nothing to delete');
    expect(live).not.toContain('Delete for good');
  });

  test('true messages: a discard in another tab is named as a discard', async () => {
    await store(async (s) => {
      const base = { slug: 'told-discard', title: 'Told', summary: '' };
      await s.putPage({ ...base, body: 'Live.' }, { publish: true });
      await s.putPage({ ...base, body: 'A draft.' });
    });
    const form = await formWithButton(
      await (await page('/preview/told-discard?edit')).text(),
      'Save draft',
    );
    await store((s) => s.discardDraft('told-discard', { editor: 'other@example.com' }));
    const response = await submitForm(`${folio.url}/preview/told-discard?edit`, form, {
      cookie,
      set: { body: 'My words.' },
    });
    expect(response.status).toBe(409);
    const html = await response.text();
    const alert = /role="alert">([^<]*)</.exec(html)?.[1] ?? '';
    expect(alert).toContain(
      'Not saved: this page had its draft discarded since you opened it, by other@example.com',
    );
    expect(await fieldOf(html, 'body')).toBe('My words.');
  });

  test('true messages: a rename that went live is not shown as a newer draft', async () => {
    await store((s) =>
      s.putPage(
        { slug: 'told-rename', title: 'Rename', summary: '', body: 'Same.' },
        { publish: true },
      ),
    );
    const form = await formWithButton(
      await (await page('/preview/told-rename?edit')).text(),
      'Save draft',
    );
    const response = await submitForm(`${folio.url}/preview/told-rename?edit`, form, {
      cookie,
      set: { slug: 'told-renamed' },
    });
    expect(response.status).toBe(303);
    const after = await (await page('/preview/told-renamed')).text();
    expect(after).toContain('Published, no unpublished changes');
    expect(after).not.toContain('newer draft');
    expect((await fetch(`${folio.url}/told-renamed`)).status).toBe(200);
  });

  test('true messages: the share-duration choice is kept after creating a link', async () => {
    const html = await (await page('/preview/about')).text();
    const response = await submitForm(
      `${folio.url}/preview/about`,
      await formWithButton(html, 'Create share link'),
      {
        cookie,
        set: { ttl: '7d' },
      },
    );
    const answer = await response.text();
    expect(answer).toMatch(/<option value="7d" selected="">7 days<\/option>/);
    expect(answer).not.toMatch(/<option value="24h" selected="">/);
  });

  test('a save after the session ended hands the typed text back on the sign-in page', async () => {
    const form = await formWithButton(
      await (await page('/preview/about?edit')).text(),
      'Save draft',
    );
    for (const lost of ['', 'folio_session=forged']) {
      const response = await submitForm(`${folio.url}/preview/about?edit`, form, {
        cookie: lost,
        set: { body: 'TYPED-WHILE-SIGNED-OUT' },
      });
      expect(response.status).toBe(401);
      const html = await response.text();
      expect(html).toContain('Your session had ended, so nothing was saved.');
      expect(html).toContain('>TYPED-WHILE-SIGNED-OUT</textarea>');
      // Signing in again leads back to the editor.
      expect(html).toContain('name="next" value="/preview/about?edit"');
    }
  });

  // Hostile pass over the refusals: only the title came back, the tagline and footer were lost.
  // (The menus have their own form: tests/integration/navigation-menus.test.ts.)
  test('site settings posted after the session ended hand every field back on the sign-in page', async () => {
    const form = await formWithButton(
      await (await page('/preview?settings')).text(),
      'Save settings',
    );
    const response = await submitForm(`${folio.url}/preview?settings`, form, {
      cookie: 'folio_session=forged',
      set: { title: 'TITLE-TYPED', tagline: 'TAGLINE-TYPED', footer: 'FOOTER-TYPED' },
    });
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).toContain('Your session had ended, so nothing was saved.');
    for (const typed of ['TITLE-TYPED', 'TAGLINE-TYPED', 'FOOTER-TYPED'])
      expect(html).toContain(`>${typed}</textarea>`);
  });

  test('share-link refusals are 422 (a duration not offered) and 409 (a page gone)', async () => {
    const form = await formWithButton(
      await (await page('/preview/about')).text(),
      'Create share link',
    );
    const bad = await submitForm(`${folio.url}/preview/about`, form, {
      cookie,
      set: { ttl: '-1' },
    });
    expect(bad.status).toBe(422);
    const gone = await submitForm(`${folio.url}/preview/about`, form, {
      cookie,
      set: { pageId: '99999' },
    });
    expect(gone.status).toBe(409);
  });

  test('an editor form with a button it does not have is a bad request, and saves nothing', async () => {
    const form = await formWithButton(
      await (await page('/preview/about?edit')).text(),
      'Save draft',
    );
    const response = await submitForm(`${folio.url}/preview/about?edit`, form, {
      cookie,
      set: { intent: 'bogus', body: 'FORGED-INTENT' },
    });
    expect(response.status).toBe(400);
    expect(await draftBody('about')).not.toBe('FORGED-INTENT');
  });

  const draftBody = (slug: string) =>
    store(async (s) => (await s.getPage(slug, { draft: true }))?.bodyMarkdown);
});

/** The value a form field of the editor shows, as the browser would submit it. */
async function fieldOf(html: string, name: string): Promise<string | undefined> {
  const form = await formWithButton(html, 'Save draft');
  return form.fields.find(([field]) => field === name)?.[1];
}

/** The live-preview pane's HTML. */
function paneOf(html: string): string {
  const start = html.indexOf('aria-label="Preview as visitors will see it"');
  return start < 0 ? '' : html.slice(start, html.indexOf('</section>', start));
}
