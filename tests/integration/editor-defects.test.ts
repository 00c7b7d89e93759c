// Issue 26's last hostile pass over the editor, through the forms without JavaScript against
// the server as the README starts it: Publish offered with nothing to publish, a save whose
// hidden page id names another page, a Preview of a body longer than a page holds. (The same
// through the JavaScript calls: action-calls.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import { BODY_MAX } from '../../src/lib/content/field-limits';
import { addEditor } from '../../src/lib/editors/accounts';
import { listPreviewLinks } from '../../src/lib/share-links/share-links';
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

  // Hostile pass (issue 26): a forged page id on Unpublish said the page "was deleted or
  // renamed"; it was not. The notice says the form names another page, and nothing changes.
  test('an Unpublish whose hidden page id names another page changes neither, and says so', async () => {
    await store(async (s) => {
      await s.putPage(
        { slug: 'defects-up', title: 'Up', summary: '', body: 'UP' },
        { publish: true },
      );
      await s.putPage(
        { slug: 'defects-other', title: 'Other', summary: '', body: 'O' },
        { publish: true },
      );
    });
    const other = await pageAt('defects-other');
    if (!other) throw new Error('no page');
    const form = await formWithButton(await (await get('/preview/defects-up')).text(), 'Unpublish');
    const response = await submitForm(`${folio.url}/preview/defects-up`, form, {
      cookie,
      set: { pageId: String(other.id), version: String(other.version) },
    });
    expect(response.status).toBe(303);
    const landing = response.headers.get('location') ?? '';
    expect(landing).toBe('/preview/defects-up?notice=replaced');
    const notice = await (await get(landing)).text();
    expect(notice).toContain('the form names another page than the one at this address now');
    expect((await pageAt('defects-up'))?.state).toBe('published');
    expect((await pageAt('defects-other'))?.state).toBe('published');
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

  test('the editor’s Publish over an unpublish it has not seen publishes nothing; the text stays the draft', async () => {
    await store((s) =>
      s.putPage(
        { slug: 'defects-down', title: 'Down', summary: '', body: 'LIVE' },
        { publish: true },
      ),
    );
    // The tab types and saves.
    const saved = await submitForm(
      `${folio.url}/preview/defects-down?edit`,
      await formWithButton(await (await get('/preview/defects-down?edit')).text(), 'Save draft'),
      { cookie, button: 'Save draft', set: { body: 'AUTOSAVED' } },
    );
    expect(saved.status).toBe(303);
    // The banner's Publish submits the editor's form (its `form` attribute) with intent=publish.
    const form = await formWithButton(
      await (await get('/preview/defects-down?edit')).text(),
      'Save draft',
    );
    // Typed more, or not: either way the publish is over a change the form never showed.
    for (const body of ['AUTOSAVED', 'AUTOSAVED AND TYPED']) {
      await store(async (s) => {
        if ((await s.getPage('defects-down', { draft: false })) === null)
          await s.publish('defects-down');
        // Another editor (or the CLI) takes the page down after the tab loaded.
        await s.unpublish('defects-down');
      });
      const before = await pageAt('defects-down');
      const response = await submitForm(`${folio.url}/preview/defects-down?edit`, form, {
        cookie,
        set: { intent: 'publish', body, version: String((before?.version ?? 0) - 1) },
      });
      expect(response.status).toBe(303);
      const landing = response.headers.get('location') ?? '';
      expect(landing).toBe('/preview/defects-down?edit&notice=stale-publish');
      // Still down; the text kept as the draft.
      expect(await store((s) => s.getPage('defects-down', { draft: false }))).toBeNull();
      expect((await fetch(`${folio.url}/defects-down`)).status).toBe(404);
      const after = await pageAt('defects-down');
      expect([after?.state, after?.bodyMarkdown]).toEqual(['draft-only', body]);
      const html = await (await get(landing)).text();
      expect(html).toContain('Not published: this page was changed since you opened it');
      expect(html).toContain('Draft only: not published');
    }
    // A form that saw the page as it is now publishes as before.
    const now = await pageAt('defects-down');
    const fresh = await submitForm(`${folio.url}/preview/defects-down?edit`, form, {
      cookie,
      set: { intent: 'publish', body: 'PUBLISHED', version: String(now?.version) },
    });
    expect(fresh.headers.get('location')).toBe('/preview/defects-down?notice=published');
    expect((await store((s) => s.getPage('defects-down', { draft: false })))?.bodyMarkdown).toBe(
      'PUBLISHED',
    );
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('the editor’s Publish with nothing to publish says so; an unchanged save adds no version and no draft', async () => {
    await store((s) =>
      s.putPage(
        { slug: 'defects-idle', title: 'Idle', summary: '', body: 'LIVE' },
        { publish: true },
      ),
    );
    const before = await pageAt('defects-idle');
    if (!before) throw new Error('no page');
    const form = await formWithButton(
      await (await get('/preview/defects-idle?edit')).text(),
      'Save draft',
    );
    const history = () =>
      Promise.all([
        store((s) => s.listRevisions(before.id)),
        store((s) => s.listCheckpoints(before.id)),
      ]);
    const kept = await history();
    // Publish (a forged button, or a tab from before it was published) with the text visitors see.
    const publish = await submitForm(`${folio.url}/preview/defects-idle?edit`, form, {
      cookie,
      set: { intent: 'publish' },
    });
    expect(publish.status).toBe(303);
    expect(publish.headers.get('location')).toBe('/preview/defects-idle?notice=nothing-to-publish');
    // Save of the same text: said as saved, nothing written.
    const save = await submitForm(`${folio.url}/preview/defects-idle?edit`, form, {
      cookie,
      button: 'Save draft',
    });
    expect(save.headers.get('location')).toBe('/preview/defects-idle?edit&notice=saved');
    const after = await pageAt('defects-idle');
    expect([after?.state, after?.version]).toEqual(['published', before.version]);
    expect(await history()).toEqual(kept);
    // A draft saved, then its text put back as published: no draft, and History lists no save
    // as "the draft now".
    const drafted = await submitForm(`${folio.url}/preview/defects-idle?edit`, form, {
      cookie,
      button: 'Save draft',
      set: { body: 'DRAFT' },
    });
    expect(drafted.status).toBe(303);
    const reverted = await submitForm(`${folio.url}/preview/defects-idle?edit`, form, {
      cookie,
      button: 'Save draft',
      set: { body: 'LIVE', version: String(before.version + 1) },
    });
    expect(reverted.status).toBe(303);
    const back = await pageAt('defects-idle');
    expect(back?.state).toBe('published');
    const [listed] = await store((s) => s.listCheckpoints(before.id));
    expect(listed?.version).toBe(before.version + 1);
    expect(back?.version).toBe(before.version + 2);
    expect(await (await get('/preview/defects-idle?history')).text()).not.toContain(
      'the draft now',
    );
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('a share link form whose page id names another page makes no link, and says so', async () => {
    await store(async (s) => {
      await s.putPage(
        { slug: 'defects-share', title: 'Shared', summary: '', body: 'OPEN' },
        { publish: true },
      );
      await s.putPage({ slug: 'defects-secret', title: 'Secret', summary: '', body: 'SECRET' });
    });
    const secret = await pageAt('defects-secret');
    const shared = await pageAt('defects-share');
    if (!secret || !shared) throw new Error('no pages');
    const form = await formWithButton(
      await (await get('/preview/defects-share?edit')).text(),
      'Create share link',
    );
    const response = await submitForm(`${folio.url}/preview/defects-share?edit`, form, {
      cookie,
      set: { pageId: String(secret.id) },
    });
    expect(response.status).toBe(409);
    const html = await response.text();
    expect(html).toContain(
      'No link was made: this form names another page than the one at /defects-share.',
    );
    expect(html).not.toContain('?share=');
    const db = await folio.database();
    expect(await listPreviewLinks(db, { pageId: secret.id })).toEqual([]);
    expect(await listPreviewLinks(db, { pageId: shared.id })).toEqual([]);
    // The form as it was made still makes its own page's link.
    const own = await submitForm(`${folio.url}/preview/defects-share?edit`, form, { cookie });
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('/defects-share?share=');
    expect(await listPreviewLinks(db, { pageId: shared.id })).toHaveLength(1);
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
