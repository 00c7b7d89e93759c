// Review before publish (issue 28, decision 0040) through the real server, as the README starts
// it, with the no-JavaScript forms a browser without scripts posts: a Contributor submits, an
// Editor sends back with a note, the Contributor reads it in the banner, edits and resubmits,
// the Editor publishes; forged calls by a Contributor and an Author are refused and change
// nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import { addEditor } from '../../src/lib/editors/accounts';
import { formsIn, formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, seededDatabase, startFolio, withStore } from '../harness';

const OWNER = { email: 'owner@example.com', password: 'the owner passphrase' };
const EDITOR = { email: 'editor@example.com', password: 'the editor passphrase' };
const WRITER = { email: 'writer@example.com', password: 'the writer passphrase' };
const AUTHOR = { email: 'author@example.com', password: 'the author passphrase' };
const SLUG = 'reviewed-story';

describe('review before publish', () => {
  let folio: RunningFolio;
  const cookies: Record<string, string> = {};
  const store = <T>(work: (store: ContentStore) => Promise<T>) => withStore(folio, work);
  const get = (who: string, path: string) =>
    fetch(`${folio.url}${path}`, { headers: { cookie: cookies[who] ?? '' }, redirect: 'manual' });
  const html = async (who: string, path: string) => (await get(who, path)).text();
  const pageId = async () => {
    const page = await store((s) => s.getPage(SLUG, { draft: true }));
    if (!page) throw new Error('no page');
    return page;
  };
  /**
   * A page's words, tags taken out; wrapped so that a failed expectation prints what was
   * looked for and a short excerpt, never the whole page.
   */
  const said = (text: string) => {
    const words = text.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
    return {
      includes: (phrase: string) => words.includes(phrase),
      toString: () => words.slice(0, 200),
    };
  };

  beforeAll(async () => {
    folio = await startFolio({ database: await seededDatabase() });
    const db = await folio.database();
    await addEditor(db, OWNER.email, OWNER.password);
    await addEditor(db, EDITOR.email, EDITOR.password, { role: 'editor' });
    await addEditor(db, WRITER.email, WRITER.password, { role: 'contributor' });
    await addEditor(db, AUTHOR.email, AUTHOR.password, { role: 'author' });
    for (const person of [EDITOR, WRITER, AUTHOR])
      cookies[person.email] = (
        await signInWithForm(folio.url, person.email, person.password)
      ).cookie;
    // The Contributor's own page (made by them: created_by).
    await store((s) =>
      s.saveDraft({
        slug: SLUG,
        title: 'A reviewed story',
        summary: '',
        body: 'The first draft, unsourced.',
        expectedVersion: null,
        editor: WRITER.email,
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await folio?.stop();
  });

  test('a Contributor sees Submit for review, and no Publish or Schedule', async () => {
    const banner = await html(WRITER.email, `/preview/${SLUG}`);
    const buttons = (await formsIn(banner)).flatMap((form) =>
      form.buttons.map((b) => b.text.trim()),
    );
    expect(buttons).toContain('Submit for review');
    expect(buttons).not.toContain('Publish this draft');
    expect(buttons).not.toContain('Schedule');
    // An Editor sees Publish and Schedule on it.
    const theirs = await html(EDITOR.email, `/preview/${SLUG}`);
    const editorButtons = (await formsIn(theirs)).flatMap((form) =>
      form.buttons.map((b) => b.text.trim()),
    );
    expect(editorButtons).toContain('Publish this draft');
    expect(editorButtons).toContain('Schedule');
  });

  test('submit, forged publish and send-back refused, sent back with a note, resubmitted, published', async () => {
    const submit = await formWithButton(
      await html(WRITER.email, `/preview/${SLUG}`),
      'Submit for review',
    );
    // An Author submitting someone else's page (their form, forged): refused, nothing asked.
    const forgedSubmit = await submitForm(`${folio.url}/preview/${SLUG}`, submit, {
      cookie: cookies[AUTHOR.email],
    });
    expect(forgedSubmit.headers.get('location')).toContain('notice=forbidden');
    expect(await store(async (s) => s.reviewOf((await pageId()).id))).toBeNull();
    // The Contributor submits.
    const submitted = await submitForm(`${folio.url}/preview/${SLUG}`, submit, {
      cookie: cookies[WRITER.email],
    });
    expect(submitted.status).toBe(303);
    expect(submitted.headers.get('location')).toContain('notice=review-submitted');
    const page = await pageId();
    expect(await store((s) => s.reviewOf(page.id))).toMatchObject({
      state: 'waiting',
      askedBy: WRITER.email,
      askedVersion: page.version,
    });
    expect(
      said(await html(WRITER.email, `/preview/${SLUG}`)).includes('Waiting for review'),
      'Waiting for review',
    ).toBe(true);

    // The dashboard's filter and count.
    const dashboard = await html(EDITOR.email, '/preview?state=review');
    expect(said(dashboard).includes('Waiting for review (1)'), 'Waiting for review (1)').toBe(true);
    expect(dashboard.includes(`/preview/${SLUG}`)).toBe(true);

    // The Editor's review screen: the word diff, Publish, Schedule and Send back.
    const review = await html(EDITOR.email, `/preview/${SLUG}?review`);
    expect(
      said(review).includes(`Submitted by ${WRITER.email}`),
      `Submitted by ${WRITER.email}`,
    ).toBe(true);
    expect(review.includes('<ins>')).toBe(true);
    const publishForm = await formWithButton(review, 'Publish this draft');
    const sendBackForm = await formWithButton(review, 'Send back');

    // A Contributor forging the Editor's publish: refused (the command lands on the page with
    // the "forbidden" notice, decision 0038), nothing published.
    const forgedPublish = await submitForm(`${folio.url}/preview/${SLUG}`, publishForm, {
      cookie: cookies[WRITER.email],
    });
    expect(forgedPublish.status).toBe(303);
    expect(forgedPublish.headers.get('location')).toContain('notice=forbidden');
    // A Contributor or an Author forging a send back: 403 in words, the note kept, nothing changes.
    for (const who of [WRITER.email, AUTHOR.email]) {
      const forged = await submitForm(`${folio.url}/preview/${SLUG}?review`, sendBackForm, {
        cookie: cookies[who],
        set: { note: 'Forged note.' },
      });
      expect(forged.status).toBe(403);
      const answer = said(await forged.text());
      // The refusal, in words (the screen shows no note field to whom may not send one back).
      expect(
        answer.includes('You cannot review this page: Contributors may not') ||
          answer.includes('You cannot review this page: Authors may not'),
      ).toBe(true);
    }
    expect((await pageId()).state).toBe('draft-only');
    expect((await store((s) => s.reviewOf(page.id)))?.state).toBe('waiting');

    // An Author cannot open the review of another's page either: 403, no Send back.
    const authorView = await get(AUTHOR.email, `/preview/${SLUG}?review`);
    expect(authorView.status).toBe(403);
    const authorHtml = await authorView.text();
    expect(
      said(authorHtml).includes('You cannot review this page'),
      'You cannot review this page',
    ).toBe(true);
    expect(authorHtml.includes('>Send back<')).toBe(false);

    // A note is required: 422 in words.
    const empty = await submitForm(`${folio.url}/preview/${SLUG}?review`, sendBackForm, {
      cookie: cookies[EDITOR.email],
      set: { note: '   ' },
    });
    expect(empty.status).toBe(422);
    expect(said(await empty.text()).includes('Say what to change'), 'Say what to change').toBe(
      true,
    );

    // The Editor sends it back with a note; the writer reads it in their banner.
    const sent = await submitForm(`${folio.url}/preview/${SLUG}?review`, sendBackForm, {
      cookie: cookies[EDITOR.email],
      set: { note: 'Name your source for the second claim.' },
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toContain('notice=sent-back');
    const writerView = said(await html(WRITER.email, `/preview/${SLUG}`));
    expect(
      writerView.includes(`Sent back by ${EDITOR.email}`),
      `Sent back by ${EDITOR.email}`,
    ).toBe(true);
    expect(
      writerView.includes('Name your source for the second claim.'),
      'Name your source for the second claim.',
    ).toBe(true);

    // The writer edits: the note leaves the banner (it stays in the history); they resubmit.
    const before = await pageId();
    await store((s) =>
      s.saveDraft({
        slug: SLUG,
        pageId: before.id,
        title: 'A reviewed story',
        summary: '',
        body: 'The second draft, sourced (the town archive).',
        expectedVersion: before.version,
        editor: WRITER.email,
      }),
    );
    const edited = await html(WRITER.email, `/preview/${SLUG}`);
    expect(
      said(edited).includes('Name your source for the second claim.'),
      'Name your source for the second claim.',
    ).toBe(false);
    const resubmitted = await submitForm(
      `${folio.url}/preview/${SLUG}`,
      await formWithButton(edited, 'Submit for review'),
      { cookie: cookies[WRITER.email] },
    );
    expect(resubmitted.headers.get('location')).toContain('notice=review-submitted');

    // The Editor publishes from the review screen: the request ends, the history tells it all.
    const again = await html(EDITOR.email, `/preview/${SLUG}?review`);
    expect(said(again).includes('Unchanged since.'), 'Unchanged since.').toBe(true);
    const published = await submitForm(
      `${folio.url}/preview/${SLUG}`,
      await formWithButton(again, 'Publish this draft'),
      { cookie: cookies[EDITOR.email] },
    );
    expect(published.headers.get('location')).toContain('notice=published');
    const after = await pageId();
    expect(after.state).toBe('published');
    expect(await store((s) => s.reviewOf(after.id))).toBeNull();
    const history = said(await html(WRITER.email, `/preview/${SLUG}?history`));
    for (const step of [
      'Submitted for review',
      'Sent back',
      'Name your source for the second claim.',
      'Submitted again for review',
      'Published after review',
    ])
      expect(history.includes(step), step).toBe(true);
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
