// Owns review before publish (issue 28, docs/decisions/0040) in the page store: a writer's
// request that their draft be reviewed, a reviewer sending it back with a note, and what ends a
// request (publishing the draft, scheduling it, or the draft going away). One request per page,
// beside its draft (migration 24); every step is also a row of the page's review history.
//
// Edits after submitting keep the request and update it (Ghost's way): the reviewer always reads
// the draft as it is now, told when it changed after the writer asked (`updatedSince`). A note
// sent back is shown to the writer until they save again or resubmit (`noteShown`). Who may do
// each step is the permission table's (page.submit, page.review); this module only keeps state.
import 'server-only';
import { recordAudit } from '../audit/audit';
import type { Query } from '../data/db';
import { ContentError } from './errors';
import { REVIEW_NOTE_MAX } from './field-limits';
import { pageRowById } from './rows';
import type { StoreContext } from './store-context';

export type ReviewState = 'waiting' | 'sent-back';

/** A page's request for review, as the banner, the review screen and the dashboard read it. */
export type ReviewRequest = {
  pageId: number;
  state: ReviewState;
  askedBy: string;
  askedAt: string;
  /** The page's version when it was submitted: the draft the writer asked about. */
  askedVersion: number;
  /** A reviewer's note when it was sent back (kept until the next submit). */
  note: string | null;
  notedBy: string | null;
  notedAt: string | null;
  /** The page's version the reviewer read when sending it back. */
  notedVersion: number | null;
};

export type ReviewEventKind = 'submitted' | 'resubmitted' | 'sent-back' | 'published' | 'scheduled';

/** One step of a page's review, for its history. */
export type ReviewEvent = {
  id: number;
  kind: ReviewEventKind;
  editor: string | null;
  at: string;
  version: number;
  note: string | null;
};

/** Whether the draft changed after the writer asked (the reviewer is told). */
export function updatedSince(request: ReviewRequest, pageVersion: number): boolean {
  return request.state === 'waiting' && pageVersion > request.askedVersion;
}

/** Whether the writer's banner shows the note: sent back, and nothing saved since. */
export function noteShown(request: ReviewRequest | null, pageVersion: number): boolean {
  return request?.state === 'sent-back' && request.notedVersion === pageVersion;
}

/** What is wrong with a note a reviewer typed, in words, or null when it will do. */
export function reviewNoteProblem(note: string): string | null {
  const length = Array.from(note.trim()).length;
  if (length === 0) return 'Say what to change: the writer reads this note in their page’s banner.';
  if (length > REVIEW_NOTE_MAX)
    return `The note is ${length} characters long; at most ${REVIEW_NOTE_MAX} are kept. Shorten it, then send it again.`;
  return null;
}

type RequestRow = {
  page_id: number | string;
  state: ReviewState;
  asked_by: string;
  asked_at: string;
  asked_version: number | string;
  note: string | null;
  noted_by: string | null;
  noted_at: string | null;
  noted_version: number | string | null;
};

function toRequest(row: RequestRow): ReviewRequest {
  return {
    pageId: Number(row.page_id),
    state: row.state,
    askedBy: row.asked_by,
    askedAt: row.asked_at,
    askedVersion: Number(row.asked_version),
    note: row.note,
    notedBy: row.noted_by,
    notedAt: row.noted_at,
    notedVersion: row.noted_version === null ? null : Number(row.noted_version),
  };
}

async function requestIn(q: Query, pageId: number): Promise<ReviewRequest | null> {
  const [row] = await q<RequestRow>`
    SELECT page_id, state, asked_by, asked_at, asked_version, note, noted_by, noted_at,
      noted_version
    FROM review_requests WHERE page_id = ${pageId}`;
  return row ? toRequest(row) : null;
}

async function recordReviewEvent(
  q: Query,
  pageId: number,
  event: { kind: ReviewEventKind; editor: string | null; at: string; version: number },
  note: string | null = null,
) {
  await q`
    INSERT INTO review_events (page_id, kind, editor, at, version, note)
    VALUES (${pageId}, ${event.kind}, ${event.editor}, ${event.at}, ${event.version}, ${note})`;
}

/**
 * Ends the page's request, inside the transaction that publishes or schedules its draft: a
 * waiting one is kept in the history as published or scheduled after review (by `editor`, at
 * `version`). A request sent back and published anyway just ends: nobody reviewed that draft.
 */
export async function closeReview(
  q: Query,
  pageId: number,
  outcome: 'published' | 'scheduled',
  { editor, at, version }: { editor: string | null; at: string; version: number },
): Promise<void> {
  const [closed] = await q<{ state: ReviewState }>`
    DELETE FROM review_requests WHERE page_id = ${pageId} RETURNING state`;
  if (closed?.state === 'waiting')
    await recordReviewEvent(q, pageId, { kind: outcome, editor, at, version });
}

/**
 * Asks for review of the page's draft as it is at `version`, on the writer's behalf: their
 * save cancelled a schedule a reviewer had set for an earlier text (page-writes.ts,
 * unscheduleForReview), inside that save's transaction. Kept in the history as a submit.
 */
export async function askReviewAgain(
  q: Query,
  pageId: number,
  { editor, at, version }: { editor: string; at: string; version: number },
): Promise<void> {
  const before = await requestIn(q, pageId);
  await q`
    INSERT INTO review_requests (page_id, state, asked_by, asked_at, asked_version)
    VALUES (${pageId}, 'waiting', ${editor}, ${at}, ${version})
    ON CONFLICT (page_id) DO UPDATE SET state = 'waiting', asked_by = excluded.asked_by,
      asked_at = excluded.asked_at, asked_version = excluded.asked_version, note = NULL,
      noted_by = NULL, noted_at = NULL, noted_version = NULL`;
  const kind = before ? 'resubmitted' : 'submitted';
  await recordReviewEvent(q, pageId, { kind, editor, at, version });
}

/** The draft is gone (discarded, or it became the published text): so is its request. */
export async function forgetReview(q: Query, pageId: number): Promise<void> {
  await q`DELETE FROM review_requests WHERE page_id = ${pageId}`;
}

/** The page as a review step expects it: there, at the version the form showed, with a draft. */
async function pageForReview(q: Query, pageId: number, expectedVersion: number) {
  const page = await pageRowById(q, pageId);
  if (!page) throw new ContentError('not-found', 'This page was deleted meanwhile.');
  if (page.version !== expectedVersion)
    throw new ContentError(
      'conflict',
      'The page changed since you opened it; review the latest version first.',
    );
  const [draft] = await q`SELECT page_id FROM drafts WHERE page_id = ${pageId}`;
  if (!draft)
    throw new ContentError(
      'invalid',
      'There is nothing to review: visitors already see this text, and it has no newer draft.',
    );
  return page;
}

export function reviewStore({ read, write, now }: StoreContext) {
  return {
    /** The page's request for review, or null. */
    async reviewOf(pageId: number): Promise<ReviewRequest | null> {
      return read((q) => requestIn(q, pageId));
    },

    /** The page's review history, oldest first. */
    async listReviewEvents(pageId: number): Promise<ReviewEvent[]> {
      const rows = await read(
        (q) => q<{
          id: number | string;
          kind: ReviewEventKind;
          editor: string | null;
          at: string;
          version: number | string;
          note: string | null;
        }>`
          SELECT id, kind, editor, at, version, note FROM review_events
          WHERE page_id = ${pageId} ORDER BY id`,
      );
      return rows.map((row) => ({ ...row, id: Number(row.id), version: Number(row.version) }));
    },

    /**
     * Asks for the page's draft to be reviewed, as it is at `expectedVersion` (the version the
     * writer's banner showed). "already": it is waiting at this version, nothing changes;
     * otherwise the request is made, or made again (after being sent back, or after edits).
     */
    async submitForReview(
      pageId: number,
      { editor, expectedVersion }: { editor: string; expectedVersion: number },
    ): Promise<'submitted' | 'resubmitted' | 'already'> {
      return write(async (q) => {
        const page = await pageForReview(q, pageId, expectedVersion);
        const before = await requestIn(q, pageId);
        if (before?.state === 'waiting' && before.askedVersion === page.version) return 'already';
        const at = now().toISOString();
        // Asked again: the note answered, the request about the draft as it is now.
        await q`
          INSERT INTO review_requests (page_id, state, asked_by, asked_at, asked_version)
          VALUES (${pageId}, 'waiting', ${editor}, ${at}, ${page.version})
          ON CONFLICT (page_id) DO UPDATE SET state = 'waiting', asked_by = excluded.asked_by,
            asked_at = excluded.asked_at, asked_version = excluded.asked_version, note = NULL,
            noted_by = NULL, noted_at = NULL, noted_version = NULL`;
        const kind = before ? 'resubmitted' : 'submitted';
        await recordReviewEvent(q, pageId, { kind, editor, at, version: page.version });
        await recordAudit(q, {
          action: 'page.submitted',
          actor: { email: editor },
          pageId,
          slug: page.slug,
          detail: { version: page.version, again: kind === 'resubmitted' },
        });
        return kind;
      });
    },

    /**
     * Sends a waiting request back to its writer with `note`, if the draft is still the one
     * the reviewer read (`expectedVersion`): a note about text they did not see is refused.
     */
    async sendBack(
      pageId: number,
      { editor, note, expectedVersion }: { editor: string; note: string; expectedVersion: number },
    ): Promise<void> {
      const problem = reviewNoteProblem(note);
      if (problem) throw new ContentError('invalid', problem);
      const text = note.trim();
      await write(async (q) => {
        const page = await pageForReview(q, pageId, expectedVersion);
        const at = now().toISOString();
        const sent = await q`
          UPDATE review_requests SET state = 'sent-back', note = ${text}, noted_by = ${editor},
            noted_at = ${at}, noted_version = ${page.version}
          WHERE page_id = ${pageId} AND state = 'waiting' RETURNING page_id`;
        if (sent.length === 0)
          throw new ContentError(
            'conflict',
            'This page is not waiting for review any more: it was published, scheduled or sent back meanwhile.',
          );
        await recordReviewEvent(
          q,
          pageId,
          { kind: 'sent-back', editor, at, version: page.version },
          text,
        );
        // The note is the writer's to read, in the page's history: the trail says that it was.
        await recordAudit(q, {
          action: 'page.sent_back',
          actor: { email: editor },
          pageId,
          slug: page.slug,
          detail: { version: page.version },
        });
      });
    },
  };
}
