// Issue 26's last hostile pass over the editor, through the forms without JavaScript against
// the server as the README starts it: Publish offered with nothing to publish, a save whose
// hidden page id names another page, a Preview of a body longer than a page holds. (The same
// through the JavaScript calls: action-calls.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import { BODY_MAX } from '../../src/lib/content/field-limits';
import { addEditor } from '../../src/lib/editors/accounts';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const EDITOR = { email: 'defects@example.com', password: 'the defects passphrase' };

describe('editor defects', () => {
  let folio: RunningFolio;
  let cookie = '';
  const get = (path: string) =>
    fetch(`${folio.url}${path}`, { headers: { cookie }, redirect: 'manual' });
  const store = <T>(work: (store: ContentStore) => Promise<T>) => withStore(folio, work);
  const pageAt = (slug: string) => store((s) => s.getPage(slug, { draft: true }));

  beforeAll(async () => {
    folio = await startFolio();
    await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
    cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
  }, 60_000);
  afterAll(async () => {
    await folio?.stop();
  });

  test('Publish is offered only when there is something to publish, in the editor and the preview', async () => {
    await store((s) =>
      s.putPage(
        { slug: 'defects-publish', title: 'Publish me', summary: '', body: 'LIVE' },
        { publish: true },
      ),
    );
    // "Published, no unpublished changes": no Publish, in the editor or in the preview.
    for (const path of ['/preview/defects-publish?edit', '/preview/defects-publish']) {
      const html = await (await get(path)).text();
      expect(html).toContain('Published, no unpublished changes');
      expect(html).not.toMatch(/<button[^>]*value="publish"/);
      expect(html).not.toContain('Publish this draft');
    }
    // With a draft: Publish in both.
    await store((s) =>
      s.putPage(
        { slug: 'defects-publish', title: 'Publish me', summary: '', body: 'DRAFT' },
        { publish: false },
      ),
    );
    expect(await (await get('/preview/defects-publish?edit')).text()).toMatch(
      /<button[^>]*value="publish"[^>]*>Publish<\/button>/,
    );
    expect(await (await get('/preview/defects-publish')).text()).toContain('Publish this draft');
  });

  test('a publish of a page with nothing to publish says so, and publishes nothing', async () => {
    await store(async (s) => {
      await s.putPage(
        { slug: 'defects-nothing', title: 'Nothing', summary: '', body: 'LIVE' },
        { publish: true },
      );
      await s.putPage(
        { slug: 'defects-nothing', title: 'Nothing', summary: '', body: 'DRAFT' },
        { publish: false },
      );
    });
    const form = await formWithButton(
      await (await get('/preview/defects-nothing')).text(),
      'Publish this draft',
    );
    // The draft goes away meanwhile (discarded in another tab): the form is stale.
    await store((s) => s.discardDraft('defects-nothing'));
    const stale = await submitForm(`${folio.url}/preview/defects-nothing`, form, { cookie });
    expect(stale.status).toBe(303);
    expect(stale.headers.get('location')).toBe('/preview/defects-nothing?notice=stale');
    // The same form made to match the page as it is now (forged, or a tab that reloaded): the
    // page is published with no draft.
    const now = await pageAt('defects-nothing');
    if (!now) throw new Error('no page');
    const published = await store((s) => s.listRevisions(now.id));
    const forged = await submitForm(`${folio.url}/preview/defects-nothing`, form, {
      cookie,
      set: { version: String(now.version) },
    });
    expect(forged.status).toBe(303);
    const landing = forged.headers.get('location') ?? '';
    expect(landing).toBe('/preview/defects-nothing?notice=nothing-to-publish');
    expect(await (await get(landing)).text()).toContain(
      'Nothing to publish: visitors already see this text',
    );
    expect((await pageAt('defects-nothing'))?.version).toBe(now.version);
    expect(await store((s) => s.listRevisions(now.id))).toHaveLength(published.length);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('a save whose hidden page id names another page is refused as not this page; neither changes', async () => {
    await store(async (s) => {
      await s.putPage({ slug: 'defects-mine', title: 'Mine', summary: '', body: 'MINE' });
      await s.putPage({ slug: 'defects-theirs', title: 'Theirs', summary: '', body: 'THEIRS' });
    });
    const form = await formWithButton(
      await (await get('/preview/defects-mine?edit')).text(),
      'Save draft',
    );
    const mine = await pageAt('defects-mine');
    const theirs = await pageAt('defects-theirs');
    if (!mine || !theirs) throw new Error('no pages');
    // Their id with their version (the save would go through), and with a stale one (it used
    // to answer "renamed"); at the form's own address and at a new one.
    const attempts: Record<string, string>[] = [
      { version: String(theirs.version) },
      { version: String(theirs.version + 3) },
      { version: String(theirs.version), slug: 'defects-moved' },
    ];
    for (const set of attempts) {
      const response = await submitForm(`${folio.url}/preview/defects-mine?edit`, form, {
        cookie,
        button: 'Save draft',
        set: { ...set, pageId: String(theirs.id), body: 'FORGED TEXT' },
      });
      expect(response.status).toBe(409);
      const html = await response.text();
      expect(html).toContain('this form names another page than the one opened at /defects-mine');
      expect(html).not.toContain('renamed');
      // The typed text is kept in the form.
      expect(html).toContain('FORGED TEXT');
    }
    for (const [slug, before] of [
      ['defects-mine', mine],
      ['defects-theirs', theirs],
    ] as const) {
      const after = await pageAt(slug);
      expect([after?.bodyMarkdown, after?.version]).toEqual([before.bodyMarkdown, before.version]);
    }
    expect(await pageAt('defects-moved')).toBeNull();
    // The form's own page id still saves.
    const own = await submitForm(`${folio.url}/preview/defects-mine?edit`, form, {
      cookie,
      button: 'Save draft',
      set: { body: 'MINE AGAIN' },
    });
    expect(own.status).toBe(303);
    expect((await pageAt('defects-mine'))?.bodyMarkdown).toBe('MINE AGAIN');
  });

  test('a Preview of a body longer than a page holds is refused in the save’s words, not rendered', async () => {
    await store((s) =>
      s.putPage({ slug: 'defects-long', title: 'Long', summary: '', body: 'Short.' }),
    );
    const form = await formWithButton(
      await (await get('/preview/defects-long?edit')).text(),
      'Preview',
    );
    const body = `${'LONG-MARKER '.repeat(16_667)}xyzxyzxy`;
    expect(body.length).toBe(BODY_MAX + 12);
    const response = await submitForm(`${folio.url}/preview/defects-long?edit`, form, {
      cookie,
      button: 'Preview',
      set: { body },
    });
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain(
      'Not previewed: the body is 200,012 characters, and a page holds at most 200,000.',
    );
    // The text is kept in the form, and not rendered as a paragraph anywhere.
    expect(html).toContain('xyzxyzxy</textarea>');
    expect(html).not.toMatch(/<p>LONG-MARKER/);
    expect((await pageAt('defects-long'))?.bodyMarkdown).toBe('Short.');
  });
});
