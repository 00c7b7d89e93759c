// Owns the history of every save (migration 12, docs/decisions/0031): each editor's save of a
// draft kept as a checkpoint at the page version it made (coalesced and pruned by
// checkpoint-policy.ts), the text other changes leave at a new version kept a while as a merge
// base, and reading them back — listed without text, one with its text, or the text a page
// had at a version (what a stale tab started from). Checkpoints are drafts' texts: nothing here
// says visitors see anything new (no `changed`), and nothing public reads this table.
import 'server-only';
import type { Query } from '../data/db';
import {
  type CheckpointKind,
  type CheckpointStub,
  checkpointsToPrune,
  coalesces,
} from './checkpoint-policy';
import type { PageFields } from './page-fields';

type Text = Pick<PageFields, 'title' | 'summary' | 'body'>;

/** A listed checkpoint, without its text. */
export type CheckpointSummary = {
  id: number;
  pageId: number;
  version: number;
  kind: CheckpointKind;
  savedAt: string;
  /** When the first of the saves it coalesces was made. */
  firstSavedAt: string;
  savedBy: string | null;
  /** How many saves it stands for (coalesced). */
  saves: number;
};

export type Checkpoint = CheckpointSummary & Text;

type SummaryRow = {
  id: number | string;
  page_id: number | string;
  version: number | string;
  kind: string;
  saved_at: string;
  first_saved_at: string;
  saved_by: string | null;
  saves: number | string;
};

function toSummary(row: SummaryRow): CheckpointSummary {
  return {
    id: Number(row.id),
    pageId: Number(row.page_id),
    version: Number(row.version),
    kind: row.kind as CheckpointKind,
    savedAt: row.saved_at,
    firstSavedAt: row.first_saved_at,
    savedBy: row.saved_by,
    saves: Number(row.saves),
  };
}

/**
 * Keeps a save's text as the page's newest checkpoint (inside the save's transaction): it
 * replaces the one before when coalescing says so — that one is hidden, not deleted, so a tab
 * that started from it can still merge — then prunes the page's history.
 */
export async function recordCheckpoint(
  q: Query,
  {
    pageId,
    version,
    kind,
    text,
    editor,
    at,
  }: {
    pageId: number;
    version: number;
    kind: CheckpointKind;
    text: Text;
    editor: string | null;
    at: string;
  },
): Promise<void> {
  const [last] = await q<{
    id: number | string;
    kind: string;
    saved_by: string | null;
    first_saved_at: string;
    saves: number | string;
  }>`
    SELECT id, kind, saved_by, first_saved_at, saves FROM checkpoints
    WHERE page_id = ${pageId} AND hidden = 0 ORDER BY id DESC LIMIT 1`;
  // A change that was not a save since (a discard, restore, publish, rename: its hidden merge
  // base is the newest row) ends the run: the text before it stays an entry of its own. Joined,
  // a discarded draft was hidden by the next autosave, and the history the editors are told
  // keeps it did not (hostile pass, issue 30).
  const [newest] = await q<{ hidden: number | string | boolean }>`
    SELECT hidden FROM checkpoints WHERE page_id = ${pageId} ORDER BY id DESC LIMIT 1`;
  const changedSince = newest !== undefined && Number(newest.hidden) === 1;
  const joins =
    !changedSince &&
    last !== undefined &&
    coalesces(
      { kind: last.kind, savedBy: last.saved_by, firstSavedAt: last.first_saved_at },
      editor,
      kind,
      new Date(at),
    );
  if (joins) await q`UPDATE checkpoints SET hidden = 1 WHERE id = ${Number(last.id)}`;
  // A manual save inside a run of autosaves makes the run a save.
  const shownKind = joins && kind === 'autosave' && last.kind === 'save' ? 'save' : kind;
  await q`
    INSERT INTO checkpoints
      (page_id, version, kind, title, summary, body, saved_at, first_saved_at, saved_by, saves)
    VALUES (${pageId}, ${version}, ${shownKind}, ${text.title}, ${text.summary}, ${text.body},
            ${at}, ${joins ? last.first_saved_at : at}, ${editor},
            ${joins ? Number(last.saves) + 1 : 1})`;
  await pruneCheckpoints(q, pageId, new Date(at));
}

/**
 * Keeps, hidden, the text a page shows editors at its current version after a change that is
 * not a save (a publish, unpublish, discard or rename): a tab opened on it merges against it.
 */
export async function keepMergeBase(
  q: Query,
  pageId: number,
  kind: string,
  editor: string | null,
  at: string,
): Promise<void> {
  await q`
    INSERT INTO checkpoints
      (page_id, version, kind, title, summary, body, saved_at, first_saved_at, saved_by, hidden)
    SELECT p.id, p.version, ${kind}, COALESCE(d.title, r.title), COALESCE(d.summary, r.summary),
      COALESCE(d.body, r.body), ${at}, ${at}, ${editor}, 1
    FROM pages p
    LEFT JOIN drafts d ON d.page_id = p.id
    LEFT JOIN revisions r ON r.id = p.published_revision_id
    WHERE p.id = ${pageId} AND (d.page_id IS NOT NULL OR r.id IS NOT NULL)`;
}

/**
 * Before the draft is replaced (a restore): the draft as it is stays a listed checkpoint, if
 * no listed one holds the current version already (a draft saved before history was kept, or
 * by the CLI).
 */
export async function keepCurrentDraft(q: Query, pageId: number): Promise<void> {
  await q`
    INSERT INTO checkpoints
      (page_id, version, kind, title, summary, body, saved_at, first_saved_at, saved_by)
    SELECT p.id, p.version, 'save', d.title, d.summary, d.body, d.updated_at, d.updated_at,
      d.updated_by
    FROM pages p JOIN drafts d ON d.page_id = p.id
    WHERE p.id = ${pageId} AND NOT EXISTS (
      SELECT 1 FROM checkpoints c
      WHERE c.page_id = p.id AND c.version = p.version AND c.hidden = 0)`;
}

/** Drops what checkpointsToPrune says, for one page (its rows without their text). */
export async function pruneCheckpoints(q: Query, pageId: number, now: Date): Promise<void> {
  const rows = await q<{
    id: number | string;
    saved_at: string;
    hidden: number | string | boolean;
    version: number | string;
  }>`SELECT id, saved_at, hidden, version FROM checkpoints WHERE page_id = ${pageId}`;
  const stubs: CheckpointStub[] = rows.map((row) => ({
    id: Number(row.id),
    savedAt: row.saved_at,
    hidden: Number(row.hidden) === 1,
    version: Number(row.version),
  }));
  if (stubs.length === 0) return;
  // The newest version kept is the page's (a save writes its checkpoint before its version
  // moves on): the row at it is the base of every tab open now, never dropped.
  const current = Math.max(...stubs.map((stub) => stub.version));
  for (const id of checkpointsToPrune(stubs, now, current))
    await q`DELETE FROM checkpoints WHERE id = ${id}`;
}

export function checkpointReads(read: <T>(work: (q: Query) => Promise<T>) => Promise<T>) {
  return {
    /** A page's listed checkpoints, newest first, without their text. */
    async listCheckpoints(pageId: number): Promise<CheckpointSummary[]> {
      const rows = await read(
        (q) => q<SummaryRow>`
          SELECT id, page_id, version, kind, saved_at, first_saved_at, saved_by, saves
          FROM checkpoints WHERE page_id = ${pageId} AND hidden = 0 ORDER BY id DESC`,
      );
      return rows.map(toSummary);
    },

    /** One listed checkpoint of that page, with its text, or null. */
    async getCheckpoint(pageId: number, checkpointId: number): Promise<Checkpoint | null> {
      const [row] = await read(
        (q) => q<SummaryRow & Text>`
          SELECT id, page_id, version, kind, saved_at, first_saved_at, saved_by, saves, title,
            summary, body
          FROM checkpoints WHERE page_id = ${pageId} AND id = ${checkpointId} AND hidden = 0`,
      );
      return row
        ? { ...toSummary(row), title: row.title, summary: row.summary, body: row.body }
        : null;
    },

    /**
     * The text the page had at `version` (what an editor's tab showed when it opened or last
     * saved), listed or hidden, or null when it is no longer kept.
     */
    async textAtVersion(pageId: number, version: number): Promise<Text | null> {
      const [row] = await read(
        (q) => q<Text>`
          SELECT title, summary, body FROM checkpoints
          WHERE page_id = ${pageId} AND version = ${version} ORDER BY id DESC LIMIT 1`,
      );
      return row ? { title: row.title, summary: row.summary, body: row.body } : null;
    },
  };
}
