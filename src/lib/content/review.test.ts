import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { type ContentStore, createContentStore, isContentError } from './content';
import { REVIEW_NOTE_MAX } from './field-limits';
import { noteShown, reviewNoteProblem, updatedSince } from './review';

// The state rules of review before publish (decision 0040), on the run's engine.
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let store: ContentStore;
let clock = new Date('2026-11-26T10:00:00Z');
const later = () => {
  clock = new Date(clock.getTime() + 60_000);
};

beforeEach(async () => {
  clock = new Date('2026-11-26T10:00:00Z');
  db = await openTestDatabase();
  store = createContentStore(db, () => clock);
});

afterEach(async () => {
  await db.dispose();
});

const WRITER = 'writer@example.com';
const EDITOR = 'editor@example.com';

async function draft(body = 'First draft.') {
  const saved = await store.saveDraft({
    slug: 'under-review',
    title: 'Under review',
    summary: '',
    body,
    expectedVersion: null,
    editor: WRITER,
  });
  if (!saved.ok) throw new Error('conflict');
  return saved;
}

async function edit(pageId: number, version: number, body: string) {
  const saved = await store.saveDraft({
    slug: 'under-review',
    pageId,
    title: 'Under review',
    summary: '',
    body,
    expectedVersion: version,
    editor: WRITER,
  });
  if (!saved.ok) throw new Error('conflict');
  return saved;
}

async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    if (isContentError(error)) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('review requests', () => {
  test('submit makes the draft wait at its version; the same submit again changes nothing', async () => {
    const { pageId, version } = await draft();
    expect(await store.submitForReview(pageId, { editor: WRITER, expectedVersion: version })).toBe(
      'submitted',
    );
    const request = await store.reviewOf(pageId);
    expect(request).toMatchObject({ state: 'waiting', askedBy: WRITER, askedVersion: version });
    expect(await store.submitForReview(pageId, { editor: WRITER, expectedVersion: version })).toBe(
      'already',
    );
    expect((await store.listReviewEvents(pageId)).map((event) => event.kind)).toEqual([
      'submitted',
    ]);
  });

  test('edits after submitting keep the request, and the reviewer is told the draft changed', async () => {
    const { pageId, version } = await draft();
    await store.submitForReview(pageId, { editor: WRITER, expectedVersion: version });
    const edited = await edit(pageId, version, 'Second draft.');
    const request = await store.reviewOf(pageId);
    expect(request?.state).toBe('waiting');
    if (!request) throw new Error('no request');
    expect(updatedSince(request, version)).toBe(false);
    expect(updatedSince(request, edited.version)).toBe(true);
  });

  test('send back keeps the note for the writer until they save again; resubmitting clears it', async () => {
    const { pageId, version } = await draft();
    await store.submitForReview(pageId, { editor: WRITER, expectedVersion: version });
    later();
    await store.sendBack(pageId, {
      editor: EDITOR,
      note: '  Cite the source.  ',
      expectedVersion: version,
    });
    const sent = await store.reviewOf(pageId);
    expect(sent).toMatchObject({ state: 'sent-back', note: 'Cite the source.', notedBy: EDITOR });
    expect(noteShown(sent, version)).toBe(true);
    const edited = await edit(pageId, version, 'Sourced draft.');
    expect(noteShown(await store.reviewOf(pageId), edited.version)).toBe(false);
    expect(
      await store.submitForReview(pageId, { editor: WRITER, expectedVersion: edited.version }),
    ).toBe('resubmitted');
    expect(await store.reviewOf(pageId)).toMatchObject({
      state: 'waiting',
      note: null,
      askedVersion: edited.version,
    });
    const events = await store.listReviewEvents(pageId);
    expect(events.map((event) => [event.kind, event.note])).toEqual([
      ['submitted', null],
      ['sent-back', 'Cite the source.'],
      ['resubmitted', null],
    ]);
  });

  test('publishing ends the request and the history says it was published after review', async () => {
    const { pageId, version } = await draft();
    await store.submitForReview(pageId, { editor: WRITER, expectedVersion: version });
    await store.publish('under-review', { editor: EDITOR, pageId, version });
    expect(await store.reviewOf(pageId)).toBeNull();
    const events = await store.listReviewEvents(pageId);
    expect(events.at(-1)).toMatchObject({ kind: 'published', editor: EDITOR });
  });

  test('scheduling ends the request; discarding the draft ends it with no history step', async () => {
    const { pageId, version } = await draft();
    await store.submitForReview(pageId, { editor: WRITER, expectedVersion: version });
    await store.schedulePublish('under-review', new Date(Date.now() + 86_400_000), {
      editor: EDITOR,
      pageId,
    });
    expect(await store.reviewOf(pageId)).toBeNull();
    expect((await store.listReviewEvents(pageId)).at(-1)?.kind).toBe('scheduled');

    // Published, then a new draft asked about and discarded: nothing is left waiting.
    await store.publish('under-review', { editor: EDITOR, pageId });
    const page = await store.getPageById(pageId);
    if (!page) throw new Error('gone');
    const edited = await edit(pageId, page.version, 'A newer draft.');
    await store.submitForReview(pageId, { editor: WRITER, expectedVersion: edited.version });
    await store.discardDraft('under-review', { editor: WRITER, pageId });
    expect(await store.reviewOf(pageId)).toBeNull();
  });

  test('refused: nothing to review, a stale version, a note missing or too long, a request not waiting', async () => {
    const { pageId, version } = await draft();
    expect(
      (
        await refusal(
          store.submitForReview(pageId, { editor: WRITER, expectedVersion: version + 1 }),
        )
      ).code,
    ).toBe('conflict');
    expect(
      (
        await refusal(
          store.sendBack(pageId, { editor: EDITOR, note: 'Why?', expectedVersion: version }),
        )
      ).code,
    ).toBe('conflict');
    await store.submitForReview(pageId, { editor: WRITER, expectedVersion: version });
    for (const note of ['', '   ', 'x'.repeat(REVIEW_NOTE_MAX + 1)])
      expect(
        (await refusal(store.sendBack(pageId, { editor: EDITOR, note, expectedVersion: version })))
          .code,
      ).toBe('invalid');
    expect((await store.reviewOf(pageId))?.state).toBe('waiting');
    await store.publish('under-review', { editor: EDITOR, pageId });
    const published = await store.getPageById(pageId);
    expect(
      (
        await refusal(
          store.submitForReview(pageId, {
            editor: WRITER,
            expectedVersion: published?.version ?? 0,
          }),
        )
      ).message,
    ).toContain('nothing to review');
  });

  test('a note is measured in characters a person sees, not UTF-16 units', () => {
    expect(reviewNoteProblem('😀'.repeat(REVIEW_NOTE_MAX))).toBeNull();
    expect(reviewNoteProblem('')).toContain('Say what to change');
  });
});
