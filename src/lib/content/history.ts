// Owns a page's history: every published version (revisions, listed without their text), one of
// them with its text, every save (checkpoints.ts), and restoring a version or a checkpoint as
// the page's draft when the page is still at the version the editor saw — the draft it
// replaces stays a checkpoint, so a restore loses nothing.
import 'server-only';
import { recordAudit } from '../audit/audit';
import type { Query } from '../data/db';
import { checkpointReads, keepCurrentDraft, recordCheckpoint } from './checkpoints';
import { ContentError } from './errors';
import {
  draftMatchesPublished,
  dropDraft,
  prepareFields,
  type StoredFields,
  touch,
  unscheduleForReview,
  writeDraft,
} from './page-writes';
import {
  pageById,
  pageRowById,
  type RevisionRow,
  type RevisionSummaryRow,
  toRevision,
  toRevisionSummary,
} from './rows';
import type { StoreContext } from './store-context';
import type { Revision, RevisionSummary, SaveResult } from './types';

/**
 * Makes `fields` the page's draft as a restore (inside the caller's transaction), if the page
 * is still at `expectedVersion`: the draft it replaces is kept first, the restored text becomes
 * a checkpoint of its own.
 */
async function restoreIn(
  q: Query,
  { pageId, expectedVersion, editor, at, cancelsSchedule = false }: RestoreAsked & { at: string },
  fields: () => Promise<StoredFields | null>,
): Promise<SaveResult> {
  const page = await pageRowById(q, pageId);
  if (!page) throw new ContentError('not-found', 'This page was deleted meanwhile.');
  if (page.version !== expectedVersion)
    return { ok: false, reason: 'conflict', current: await pageById(q, page.id) };
  const restored = await fields();
  if (!restored) throw new ContentError('not-found', 'That version is not in this page’s history.');
  await keepCurrentDraft(q, pageId);
  await writeDraft(q, pageId, restored, editor, at);
  const nothingNew = await draftMatchesPublished(q, pageId);
  if (nothingNew) await dropDraft(q, pageId);
  await recordCheckpoint(q, {
    pageId,
    version: page.version + 1,
    kind: 'restore',
    text: restored,
    editor,
    at,
  });
  await touch(q, pageId, at, 'restored', editor);
  await recordAudit(q, {
    action: 'page.restored',
    actor: editor ? { email: editor } : undefined,
    pageId,
    slug: page.slug,
    detail: { version: page.version + 1 },
    at,
  });
  // A restore is a change to the draft like a save (hostile pass 2, issue 28): by someone who
  // may not schedule the page, it ends a reviewer's schedule of the text before it.
  const unscheduled =
    cancelsSchedule && !nothingNew
      ? await unscheduleForReview(q, pageId, page.version + 1, editor, at)
      : false;
  return {
    ok: true,
    version: page.version + 1,
    pageId,
    slug: page.slug,
    ...(unscheduled ? { unscheduled } : {}),
  };
}

/** What a restore is asked with: the page as the editor saw it, and by whom. */
type RestoreAsked = {
  pageId: number;
  expectedVersion: number;
  editor: string | null;
  /** The restorer may not schedule this page: a pending schedule ends (save-page.ts). */
  cancelsSchedule?: boolean;
};

export function history({ read, write, now, opened }: StoreContext) {
  const checkpoints = checkpointReads(read);
  return {
    ...checkpoints,

    /**
     * Makes a saved checkpoint the page's draft, if the page is still at the version the
     * editor saw; a stale request changes nothing.
     */
    async restoreCheckpoint({
      checkpointId,
      ...asked
    }: RestoreAsked & { checkpointId: number }): Promise<SaveResult> {
      const { pageId } = asked;
      const checkpoint = await checkpoints.getCheckpoint(pageId, checkpointId);
      if (!checkpoint)
        throw new ContentError('not-found', 'That save is not in this page’s history.');
      // Rendered once, outside the transaction, like any save.
      const fields = await prepareFields(checkpoint, (await opened()).query);
      return write((q) => restoreIn(q, { ...asked, at: now().toISOString() }, async () => fields));
    },

    /**
     * Every published version of a page, newest first, without their text (no title, summary
     * or body column is read): the history, the banner and the confirmations list or count
     * them on every view; getRevision reads the one a view shows or compares.
     */
    async listRevisions(pageId: number): Promise<RevisionSummary[]> {
      const rows = await read(
        (q) => q<RevisionSummaryRow>`
          SELECT r.id, r.page_id, r.published_at, r.published_by, r.published_via,
            (p.published_revision_id = r.id) AS current
          FROM revisions r JOIN pages p ON p.id = r.page_id
          WHERE r.page_id = ${pageId} ORDER BY r.id DESC`,
      );
      return rows.map(toRevisionSummary);
    },

    /** How many times a page was published (its history's length), counted, not listed. */
    async countRevisions(pageId: number): Promise<number> {
      const [row] = await read(
        (q) => q<{ n: number | string }>`
          SELECT COUNT(*) AS n FROM revisions WHERE page_id = ${pageId}`,
      );
      return Number(row?.n ?? 0);
    },

    /** One published version of a page (of that page only), or null. */
    async getRevision(pageId: number, revisionId: number): Promise<Revision | null> {
      const [row] = await read(
        (q) => q<RevisionRow>`
          SELECT r.id, r.page_id, r.title, r.summary, r.body, r.body_html, r.published_at,
            r.published_by, r.published_via, (p.published_revision_id = r.id) AS current
          FROM revisions r JOIN pages p ON p.id = r.page_id
          WHERE r.page_id = ${pageId} AND r.id = ${revisionId}`,
      );
      return row ? toRevision(row) : null;
    },

    /**
     * Makes an earlier published version the page's draft (to publish again, or edit), if the
     * page is still at the version the editor saw; a stale request changes nothing.
     */
    async restoreRevision({
      revisionId,
      ...asked
    }: RestoreAsked & { revisionId: number }): Promise<SaveResult> {
      const { pageId } = asked;
      return write((q) =>
        restoreIn(q, { ...asked, at: now().toISOString() }, async () => {
          const [revision] = await q<{
            title: string;
            summary: string;
            body: string;
            body_html: string;
          }>`
            SELECT title, summary, body, body_html FROM revisions
            WHERE id = ${revisionId} AND page_id = ${pageId}`;
          return revision
            ? {
                title: revision.title,
                summary: revision.summary,
                body: revision.body,
                bodyHtml: revision.body_html,
              }
            : null;
        }),
      );
    },
  };
}
