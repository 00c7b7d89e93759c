// History of every save and merged saves (issue 26) through the no-JavaScript forms, against
// the server as the README starts it: two forms opened on one page save different paragraphs
// and both are kept; the same paragraph asks, and the choice is what is saved; a save is
// restored from the history; a comparison opens at its first change with the rest folded.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import { addEditor } from '../../src/lib/editors/accounts';
import { formsIn, formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const OWNER = { email: 'history-owner@example.com', password: 'the owner passphrase' };
const BASE = 'Intro.\n\nFerry times.\n\nContact us.';

describe('history and merges', () => {
  let folio: RunningFolio;
  let cookie = '';
  const page = (path: string) =>
    fetch(`${folio.url}${path}`, { headers: { cookie }, redirect: 'manual' });
  const store = <T>(work: (store: ContentStore) => Promise<T>) => withStore(folio, work);
  const bodyOf = (slug: string) =>
    store(async (s) => (await s.getPage(slug, { draft: true }))?.bodyMarkdown);
  const editorForm = async (slug: string) =>
    formWithButton(await (await page(`/preview/${slug}?edit`)).text(), 'Save draft');

  beforeAll(async () => {
    folio = await startFolio();
    await addEditor(await folio.database(), OWNER.email, OWNER.password);
    cookie = (await signInWithForm(folio.url, OWNER.email, OWNER.password)).cookie;
  }, 60_000);
  afterAll(async () => {
    await folio?.stop();
  });

  test('two forms changing different paragraphs: the second save merges, keeps both and says so', async () => {
    await store((s) =>
      s.putPage({ slug: 'merge-two', title: 'Merge two', summary: '', body: BASE }),
    );
    const first = await editorForm('merge-two');
    const second = await editorForm('merge-two');
    const url = `${folio.url}/preview/merge-two?edit`;
    const saved = await submitForm(url, first, {
      cookie,
      set: { body: 'Intro.\n\nFerry times.\n\nContact us: the office phone.' },
    });
    expect(saved.status).toBe(303);
    const merged = await submitForm(url, second, {
      cookie,
      set: { body: 'Intro.\n\nFerry times, summer.\n\nContact us.' },
    });
    expect(merged.status).toBe(200);
    const html = await merged.text();
    expect(html).toContain('Merged with changes saved at');
    expect(html).toContain('by you in another tab or window');
    expect(await bodyOf('merge-two')).toBe(
      'Intro.\n\nFerry times, summer.\n\nContact us: the office phone.',
    );
    // The form the answer holds is the merged text at the new version: saving it again works.
    const again = await formWithButton(html, 'Save draft');
    expect(again.fields.find(([name]) => name === 'body')?.[1]).toBe(
      'Intro.\n\nFerry times, summer.\n\nContact us: the office phone.',
    );
    expect((await submitForm(url, again, { cookie })).status).toBe(303);
  });

  test('the same paragraph changed by both asks; the choice is saved, their other change kept', async () => {
    await store((s) =>
      s.putPage({ slug: 'merge-ask', title: 'Merge ask', summary: '', body: BASE }),
    );
    const first = await editorForm('merge-ask');
    const second = await editorForm('merge-ask');
    const url = `${folio.url}/preview/merge-ask?edit`;
    await submitForm(url, first, {
      cookie,
      set: { body: 'Intro, theirs.\n\nFerry times B.\n\nContact us.' },
    });
    const asked = await submitForm(url, second, {
      cookie,
      set: { body: 'Intro.\n\nFerry times A.\n\nContact us.' },
    });
    expect(asked.status).toBe(409);
    const html = await asked.text();
    expect(html).toContain('You both changed the same lines');
    // Nothing saved yet: their text is there; the typed text is in the form.
    expect(await bodyOf('merge-ask')).toBe('Intro, theirs.\n\nFerry times B.\n\nContact us.');
    const choose = await formWithButton(html, 'Save with these choices');
    expect(choose.fields.find(([name]) => name === 'body')?.[1]).toBe(
      'Intro.\n\nFerry times A.\n\nContact us.',
    );
    // "Mine" is the choice the form starts with (the text in the form).
    expect(choose.fields.find(([name]) => name === 'choice-0')?.[1]).toBe('mine');
    const saved = await submitForm(url, choose, {
      cookie,
      set: { 'choice-0': 'both' },
      button: 'Save with these choices',
    });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain('Merged with changes saved at');
    const body = await bodyOf('merge-ask');
    expect(body).toContain('Intro, theirs.');
    expect(body).toContain('Ferry times A.');
    expect(body).toContain('Ferry times B.');
  });

  test('choices made for other conflicts are not applied: the form asks again, text kept', async () => {
    await store((s) => s.putPage({ slug: 'merge-stale', title: 'Stale', summary: '', body: BASE }));
    const first = await editorForm('merge-stale');
    const second = await editorForm('merge-stale');
    const url = `${folio.url}/preview/merge-stale?edit`;
    await submitForm(url, first, { cookie, set: { body: 'Intro.\n\nFerry B.\n\nContact us.' } });
    const asked = await submitForm(url, second, {
      cookie,
      set: { body: 'Intro.\n\nFerry A.\n\nContact us.' },
    });
    const choose = await formWithButton(await asked.text(), 'Save with these choices');
    const again = await submitForm(url, choose, {
      cookie,
      set: {
        body: 'Intro.\n\nFerry A, edited after choosing.\n\nContact us.',
        'choice-0': 'theirs',
      },
      button: 'Save with these choices',
    });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('choose again');
    expect(await bodyOf('merge-stale')).toBe('Intro.\n\nFerry B.\n\nContact us.');
  });

  test('a save is restored from the history; the draft it replaced stays listed', async () => {
    await store((s) =>
      s.putPage({ slug: 'restore-save', title: 'Restore', summary: '', body: 'One.' }),
    );
    const url = `${folio.url}/preview/restore-save?edit`;
    expect(
      (await submitForm(url, await editorForm('restore-save'), { cookie, set: { body: 'Two.' } }))
        .status,
    ).toBe(303);
    const history = await (await page('/preview/restore-save?history')).text();
    expect(history).toContain('Saves');
    expect(history).toContain('by history-owner@example.com');
    // The first save ("Two.") is the draft now; the CLI's text has no listed save: only one.
    await store(async (s) => {
      const p = await s.getPage('restore-save', { draft: true });
      await s.saveDraft({
        slug: 'restore-save',
        pageId: p?.id ?? 0,
        title: 'Restore',
        summary: '',
        body: 'Three, by someone else.',
        expectedVersion: p?.version ?? 0,
        editor: 'other@example.com',
        checkpoint: 'save',
      });
    });
    const listed = await (await page('/preview/restore-save?history')).text();
    const restore = (await formsIn(listed)).find((form) =>
      form.fields.some(([name]) => name === 'checkpointId'),
    );
    if (!restore) throw new Error('no Restore form for a save');
    const restored = await submitForm(`${folio.url}/preview/restore-save?history`, restore, {
      cookie,
    });
    expect(restored.status).toBe(303);
    expect(restored.headers.get('location')).toContain('notice=restored');
    expect(await bodyOf('restore-save')).toBe('Two.');
    const after = await store(async (s) => {
      const p = await s.getPage('restore-save', { draft: true });
      return (await s.listCheckpoints(p?.id ?? 0)).map((c) => c.kind);
    });
    expect(after).toEqual(['restore', 'save', 'save']);
  });

  test('Compare opens at the first change and folds the unchanged paragraphs', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}.`);
    await store((s) =>
      s.putPage({ slug: 'compare-fold', title: 'Compare', summary: '', body: lines.join('\n\n') }),
    );
    const url = `${folio.url}/preview/compare-fold?edit`;
    await submitForm(url, await editorForm('compare-fold'), {
      cookie,
      set: { body: lines.map((l, i) => (i === 30 ? 'Paragraph 30, changed.' : l)).join('\n\n') },
    });
    const ids = await store(async (s) => {
      const p = await s.getPage('compare-fold', { draft: true });
      return (await s.listCheckpoints(p?.id ?? 0)).map((c) => c.id);
    });
    await store(async (s) => {
      const p = await s.getPage('compare-fold', { draft: true });
      await s.saveDraft({
        slug: 'compare-fold',
        pageId: p?.id ?? 0,
        title: 'Compare',
        summary: '',
        body: lines.map((l, i) => (i === 30 ? 'Paragraph 30, changed again.' : l)).join('\n\n'),
        expectedVersion: p?.version ?? 0,
        editor: 'other@example.com',
        checkpoint: 'save',
      });
    });
    const newest = await store(async (s) => {
      const p = await s.getPage('compare-fold', { draft: true });
      return (await s.listCheckpoints(p?.id ?? 0))[0]?.id;
    });
    const html = await (
      await page(`/preview/compare-fold?history&from=c${ids[0]}&to=c${newest}`)
    ).text();
    // (Checked with includes: a failure prints no whole page.)
    expect(html.includes('id="first-change"')).toBe(true);
    // The 30 paragraphs before the change and the 9 after it fold; the change shows.
    expect(html.includes('… <!-- -->30 unchanged paragraphs<!-- --> …')).toBe(true);
    expect(html.includes('… <!-- -->9 unchanged paragraphs<!-- --> …')).toBe(true);
    // Word by word inside the changed paragraph only.
    expect(html.includes('<span>Paragraph 30, changed</span><ins> again</ins>')).toBe(true);
  });
});
