// Owns where a page's shared document is kept (docs/decisions/0050, migration 033): its updates
// in order, and the snapshot they are compacted into. Every write is one transaction of
// Database.transaction (one at a time across every process), so the numbers a page's updates
// take commit in the order they are taken: a reader that has applied up to N and reads `seq > N`
// misses nothing. On PostgreSQL an update's transaction also NOTIFYs the other instances
// (delivered at its commit, dropped with a rollback).
import 'server-only';
import * as Y from 'yjs';
import { BODY_MAX, characterCount } from '../content/field-limits';
import { mergeBodiesKeepingBoth } from '../content/merge';
import { smallestEdit } from '../content/text-edits';
import type { Database, Query } from '../data/db';

export const COEDIT_CHANNEL = 'folio_coedit';
/** The Y.Text of a page's body, in every document. */
export const BODY_TEXT = 'body';
/** The Y.Texts of a page's title and summary, beside its body (decision 0050, second slice). */
export const TITLE_TEXT = 'title';
export const SUMMARY_TEXT = 'summary';
/** Every top-level type a document may hold: each a Y.Text named as the page's field. */
export const FIELD_TEXTS = [TITLE_TEXT, SUMMARY_TEXT, BODY_TEXT] as const;
export type FieldName = (typeof FIELD_TEXTS)[number];
export type DocumentFields = Record<FieldName, string>;

/** Bytes as Bun's SQL client gives them back (a Buffer on PostgreSQL): a plain Uint8Array. */
function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return new Uint8Array(value);
  throw new Error('a stored update is not bytes');
}

export type StoredHead = {
  /** The last update's number. */
  seq: number;
  /** Updates up to this number are in `snapshot` (and deleted). */
  snapshotSeq: number;
  snapshot: Uint8Array | null;
  /** The page version this document last wrote as the draft; null: none yet. */
  writtenVersion: number | null;
  /** When the row was made: with the page's id, the document's identity (identity.ts). */
  createdAt: string;
};

export async function readHead(q: Query, pageId: number): Promise<StoredHead | null> {
  const [row] = await q<{
    seq: number | string;
    snapshot_seq: number | string;
    snapshot: Uint8Array | null;
    written_version: number | string | null;
    created_at: string;
  }>`SELECT seq, snapshot_seq, snapshot, written_version, created_at FROM coedit_documents
     WHERE page_id = ${pageId}`;
  if (!row) return null;
  return {
    seq: Number(row.seq),
    snapshotSeq: Number(row.snapshot_seq),
    snapshot: row.snapshot === null ? null : bytesOf(row.snapshot),
    writtenVersion: row.written_version === null ? null : Number(row.written_version),
    createdAt: String(row.created_at),
  };
}

/**
 * The last update's number, when the row was made and the draft version last written from it
 * (the fallback poll asks every few seconds; a row made again since the document was loaded is
 * another document).
 */
export async function readSeq(
  q: Query,
  pageId: number,
): Promise<{ seq: number; createdAt: string; writtenVersion: number | null } | null> {
  const [row] = await q<{
    seq: number | string;
    created_at: string;
    written_version: number | string | null;
  }>`SELECT seq, created_at, written_version FROM coedit_documents WHERE page_id = ${pageId}`;
  if (!row) return null;
  return {
    seq: Number(row.seq),
    createdAt: String(row.created_at),
    writtenVersion: row.written_version === null ? null : Number(row.written_version),
  };
}

/** Updates read at a time. */
const UPDATES_BATCH = 500;

export async function readUpdates(
  q: Query,
  pageId: number,
  after: number,
  limit = UPDATES_BATCH,
): Promise<{ seq: number; data: Uint8Array }[]> {
  const rows = await q<{ seq: number | string; data: Uint8Array }>`
    SELECT seq, data FROM coedit_updates WHERE page_id = ${pageId} AND seq > ${after}
    ORDER BY seq LIMIT ${limit}`;
  return rows.map((row) => ({ seq: Number(row.seq), data: bytesOf(row.data) }));
}

/**
 * Makes the page's document if it has none: its first update is `seed()` (the page's text as
 * a Yjs update), written by whichever instance comes first, in a transaction that checks none
 * exists. Every instance then loads that same update, so the initial state is identical
 * everywhere (two instances seeding the same text on their own would each insert it: twice).
 */
export async function createDocument(
  db: Database,
  pageId: number,
  seed: () => Promise<{ update: Uint8Array; version: number } | null>,
  at: string,
): Promise<boolean> {
  const made = await seed();
  if (!made) return false;
  return db.transaction(async (q) => {
    const [exists] = await q`SELECT page_id FROM coedit_documents WHERE page_id = ${pageId}`;
    if (exists) return true;
    const [page] = await q`SELECT id FROM pages WHERE id = ${pageId}`;
    if (!page) return false;
    await q`INSERT INTO coedit_documents (page_id, seq, snapshot_seq, written_version, created_at)
            VALUES (${pageId}, 1, 0, ${made.version}, ${at})`;
    await q`INSERT INTO coedit_updates (page_id, seq, data, created_at, created_by)
            VALUES (${pageId}, 1, ${made.update}, ${at}, NULL)`;
    return true;
  });
}

/** A document's first update: `fields` as new text, with no history behind it. */
export function seedUpdateOf(fields: DocumentFields): Uint8Array {
  const doc = new Y.Doc();
  for (const field of FIELD_TEXTS) doc.getText(field).insert(0, fields[field]);
  const update = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return update;
}

/**
 * Makes the page's document again from `seed` (its text, no history), in one transaction —
 * only if the stored one is still `expected` (nothing stored since it was read): a document
 * whose history of edits outgrew its text (documents.ts, "Started afresh"). The new row is
 * another identity (identity.ts), made later than the old, so a browser's copy of the old one
 * is never merged into it; the version it last wrote as the draft carries over, so a draft
 * saved by another path meanwhile is still taken in at the next load. Says whether it was made.
 */
export async function startAfresh(
  db: Database,
  pageId: number,
  expected: { seq: number; createdAt: string },
  seed: Uint8Array,
  at: Date,
): Promise<string | null> {
  return db.transaction(async (q) => {
    const head = await readHead(q, pageId);
    if (!head || head.seq !== expected.seq || head.createdAt !== expected.createdAt) return null;
    // Later than the old row's, to the millisecond an identity counts: another identity.
    const before = Date.parse(head.createdAt);
    const made = new Date(
      Number.isFinite(before) ? Math.max(at.getTime(), before + 1) : at.getTime(),
    ).toISOString();
    await q`DELETE FROM coedit_updates WHERE page_id = ${pageId}`;
    await q`DELETE FROM coedit_documents WHERE page_id = ${pageId}`;
    await q`INSERT INTO coedit_documents (page_id, seq, snapshot_seq, written_version, created_at)
            VALUES (${pageId}, 1, 0, ${head.writtenVersion}, ${made})`;
    await q`INSERT INTO coedit_updates (page_id, seq, data, created_at, created_by)
            VALUES (${pageId}, 1, ${seed}, ${made}, NULL)`;
    return made;
  });
}

/**
 * Inserts update `seq` inside a write transaction and, on PostgreSQL, tells the other instances
 * (the NOTIFY is delivered at the commit, dropped with a rollback).
 */
async function insertUpdate(
  q: Query,
  engine: Database['engine'],
  pageId: number,
  seq: number,
  update: Uint8Array,
  by: string | null,
  at: string,
): Promise<void> {
  await q`INSERT INTO coedit_updates (page_id, seq, data, created_at, created_by)
          VALUES (${pageId}, ${seq}, ${update}, ${at}, ${by})`;
  if (engine === 'postgres') await q`SELECT pg_notify(${COEDIT_CHANNEL}, ${`${pageId}:${seq}`})`;
}

/**
 * Stores one update (committed when this returns) and says its number; null when the page's
 * document is gone (the page was deleted) or is not the one made at `createdAt` any more.
 */
export async function appendUpdate(
  db: Database,
  pageId: number,
  createdAt: string,
  update: Uint8Array,
  by: string | null,
  at: string,
): Promise<{ seq: number; snapshotSeq: number } | null> {
  return db.transaction(async (q) => {
    // Only to the document it was made for: one made again meanwhile (started afresh by
    // another instance) would take an edit of text it does not have.
    const [row] = await q<{ seq: number | string; snapshot_seq: number | string }>`
      UPDATE coedit_documents SET seq = seq + 1
      WHERE page_id = ${pageId} AND created_at = ${createdAt}
      RETURNING seq, snapshot_seq`;
    if (!row) return null;
    const seq = Number(row.seq);
    await insertUpdate(q, db.engine, pageId, seq, update, by, at);
    return { seq, snapshotSeq: Number(row.snapshot_seq) };
  });
}

/** Whether the stored document is the one made at `expected.createdAt`, at its update `seq`. */
function isAt(
  head: StoredHead | null,
  expected: { seq: number; createdAt: string },
): head is StoredHead {
  return head !== null && head.seq === expected.seq && head.createdAt === expected.createdAt;
}

/**
 * Stores the edit that makes the document say what a save by another path wrote, and records
 * that version as the document's, in one transaction — only if the document is still at
 * `expected` (the same row, at the same update) and has not taken that version already: two
 * instances loading the page at once would otherwise both store the same difference (and the
 * text would have it twice). Says the update's number, or null when it was not stored (the
 * caller reads what changed and asks again).
 */
export async function appendReconciliation(
  db: Database,
  pageId: number,
  expected: { seq: number; createdAt: string },
  version: number,
  update: Uint8Array,
  by: string | null,
  at: string,
): Promise<number | null> {
  return db.transaction(async (q) => {
    const head = await readHead(q, pageId);
    if (!isAt(head, expected) || head.writtenVersion === version) return null;
    const seq = head.seq + 1;
    await q`UPDATE coedit_documents SET seq = ${seq}, written_version = ${version}
            WHERE page_id = ${pageId}`;
    await insertUpdate(q, db.engine, pageId, seq, update, by, at);
    return seq;
  });
}

/**
 * Merges every stored update into the snapshot and deletes them, in one transaction: a reader
 * sees either the updates or the snapshot that holds them. Says the new snapshot's number.
 */
export async function compact(db: Database, pageId: number): Promise<number | null> {
  return db.transaction(async (q) => {
    const head = await readHead(q, pageId);
    if (!head || head.seq === head.snapshotSeq) return head?.snapshotSeq ?? null;
    const rows = await q<{ seq: number | string; data: Uint8Array }>`
      SELECT seq, data FROM coedit_updates WHERE page_id = ${pageId} AND seq > ${head.snapshotSeq}
        AND seq <= ${head.seq} ORDER BY seq`;
    // Updates missing (deleted by hand): merged, the snapshot would hide the gap and hold only
    // edits that build on what is gone — an empty text, written as the draft (the walk-through).
    // Left as it is, the next reader finds it damaged (DamagedDocument) and it is made again.
    if (rows.length !== head.seq - head.snapshotSeq) return head.snapshotSeq;
    const parts = rows.map((row) => bytesOf(row.data));
    if (head.snapshot) parts.unshift(head.snapshot);
    const merged = Y.mergeUpdates(parts);
    await q`UPDATE coedit_documents SET snapshot = ${merged}, snapshot_seq = ${head.seq}
            WHERE page_id = ${pageId}`;
    await q`DELETE FROM coedit_updates WHERE page_id = ${pageId} AND seq <= ${head.seq}`;
    return head.seq;
  });
}

/** Records the page version the document wrote as the draft (or found the draft already at). */
export async function markWritten(db: Database, pageId: number, version: number): Promise<void> {
  await db.query`UPDATE coedit_documents SET written_version = ${version} WHERE page_id = ${pageId}`;
}

/**
 * Records `version` as the one the document wrote, unless a later one is recorded already: an
 * editor's live save (save-page.ts) writes the document's text as the draft itself, and must not
 * move the mark back behind a draft the document wrote meanwhile.
 */
export async function markWrittenIfNewer(
  db: Database,
  pageId: number,
  version: number,
): Promise<void> {
  await db.query`UPDATE coedit_documents SET written_version = ${version}
    WHERE page_id = ${pageId} AND (written_version IS NULL OR written_version < ${version})`;
}

/**
 * A page's stored document with updates missing that no snapshot holds: its `coedit_updates`
 * rows deleted by hand (or some of them), its row left. Nothing stored can be read whole again;
 * an instance that holds the document in memory writes that as the draft and makes it again
 * (documents.ts, repairDamaged), and one that does not drops the row (dropDamaged).
 */
export class DamagedDocument extends Error {
  constructor(
    readonly pageId: number,
    from: number,
    to: number | null,
    /** Which document (its row's `created_at`), when the reader knew: the one to drop. */
    readonly createdAt: string | null = null,
  ) {
    super(
      to === null
        ? `page ${pageId}: stored updates after ${from} are missing`
        : `page ${pageId}: stored updates skip from ${from} to ${to}`,
    );
    this.name = 'DamagedDocument';
  }
}

/**
 * Deletes the page's document `createdAt` (that one only: not one made again meanwhile), a
 * damaged one: the next join makes it again from the draft. Says whether it was there.
 */
export async function dropDamaged(db: Database, pageId: number, createdAt: string) {
  return db.transaction(async (q) => {
    const head = await readHead(q, pageId);
    if (!head || head.createdAt !== createdAt) return false;
    await q`DELETE FROM coedit_updates WHERE page_id = ${pageId}`;
    await q`DELETE FROM coedit_documents WHERE page_id = ${pageId}`;
    return true;
  });
}

/**
 * Applies to `doc` every stored update after `after` (the snapshot first when updates it holds
 * are wanted), and says the number it has applied up to. Applying twice is harmless (Yjs
 * updates are idempotent), so a snapshot written meanwhile is simply applied whole. Updates
 * missing (DamagedDocument) are said, not skipped: applied past a gap, Yjs holds back every
 * later edit that builds on what is missing, and the text read would quietly lack them.
 */
export async function applyStored(
  q: Query,
  pageId: number,
  doc: Y.Doc,
  after: number,
  origin: unknown,
): Promise<number> {
  let applied = after;
  let lookedAgain = false;
  for (;;) {
    const rows = await readUpdates(q, pageId, applied, UPDATES_BATCH);
    const from = applied;
    for (const row of rows) {
      if (row.seq !== applied + 1) break;
      Y.applyUpdate(doc, row.data, origin);
      applied = row.seq;
    }
    const next = rows.find((row) => row.seq > applied)?.seq ?? null;
    // A full batch read whole: there may be more.
    if (rows.length === UPDATES_BATCH && next === null) continue;
    if (applied > from) lookedAgain = false;
    // Read to its end, or to a gap: the head says whether that is all. Without asking it, a gap
    // inside a batch or a missing tail was taken for the end, and the text read quietly lacked
    // every update after it (the hostile pass: middle rows deleted by hand, the draft written
    // without them, the tab saying "Saved").
    const head = await readHead(q, pageId);
    if (!head || head.seq <= applied) return applied;
    // The updates after `applied` were compacted into the snapshot.
    if (head.snapshotSeq > applied && head.snapshot) {
      Y.applyUpdate(doc, head.snapshot, origin);
      applied = head.snapshotSeq;
      continue;
    }
    // None more read, and the head says more: stored between the two reads, most likely (they
    // are not one transaction here); read once more before calling them missing.
    if (next === null && !lookedAgain) {
      lookedAgain = true;
      continue;
    }
    throw new DamagedDocument(pageId, applied, next);
  }
}

/** The text of each of a document's fields. */
export function fieldsOf(doc: Y.Doc): DocumentFields {
  return {
    title: doc.getText(TITLE_TEXT).toString(),
    summary: doc.getText(SUMMARY_TEXT).toString(),
    body: doc.getText(BODY_TEXT).toString(),
  };
}

/**
 * The stored document's fields, merged from the database (not from any instance's memory); null
 * when the page has no document, or it was deleted or made again while being read.
 */
export async function storedFields(q: Query, pageId: number): Promise<DocumentFields | null> {
  const before = await readHead(q, pageId);
  if (!before) return null;
  const doc = new Y.Doc();
  try {
    try {
      await applyStored(q, pageId, doc, 0, null);
    } catch (error) {
      // Said of the document read, so a repair drops that one, never one made again since.
      if (!(error instanceof DamagedDocument)) throw error;
      throw new DamagedDocument(pageId, 0, null, before.createdAt);
    }
    // Edits that build on what is not stored (a snapshot made across missing updates, before
    // compaction looked for them): the text read lacks them, and everything built on them.
    if (doc.store.pendingStructs !== null || doc.store.pendingDs !== null)
      throw new DamagedDocument(pageId, 0, null, before.createdAt);
    // Deleted (or made again) while it was read: what was read is not that document whole — an
    // empty text, when its rows were gone before the first read, which written as the draft
    // emptied the page (the hostile pass: a draft write due as the rows were deleted by hand,
    // and an instance's last write as it stopped).
    const after = await readHead(q, pageId);
    if (!after || after.createdAt !== before.createdAt) return null;
    return fieldsOf(doc);
  } finally {
    doc.destroy();
  }
}

/**
 * Stores `update` only if nothing was stored since `expected` and the row was not made again
 * (one transaction); says its number, or null when something was (the caller reads it and
 * looks again). For an edit the
 * server makes of its own accord, which two instances might each make at once: the fields a
 * document made before they were in it lacks, filled from the page.
 */
export async function appendIfAt(
  db: Database,
  pageId: number,
  expected: { seq: number; createdAt: string },
  update: Uint8Array,
  at: string,
): Promise<number | null> {
  return db.transaction(async (q) => {
    const head = await readHead(q, pageId);
    if (!isAt(head, expected)) return null;
    const seq = head.seq + 1;
    await q`UPDATE coedit_documents SET seq = ${seq} WHERE page_id = ${pageId}`;
    await insertUpdate(q, db.engine, pageId, seq, update, null, at);
    return seq;
  });
}

/** The stored document's body text, merged from the database (not from any instance's memory). */
export async function storedText(q: Query, pageId: number): Promise<string> {
  const doc = new Y.Doc();
  try {
    await applyStored(q, pageId, doc, 0, null);
    return doc.getText(BODY_TEXT).toString();
  } finally {
    doc.destroy();
  }
}

/** The smallest edit from `from` to `to`: the common start and end kept, the middle replaced. */
export function replaceText(text: Y.Text, from: string, to: string): void {
  const edit = smallestEdit(from, to);
  if (edit.remove > 0) text.delete(edit.at, edit.remove);
  if (edit.insert.length > 0) text.insert(edit.at, edit.insert);
}

/**
 * Makes the document say what a live save just wrote as the draft (`saved`, version `version`)
 * when that save took in another path's save the document had not merged yet (save-page.ts),
 * and records the version as the document's own — one transaction. Left to the document's poll,
 * that version would be merged again three ways from the text the document last wrote, and
 * where the live editors had changed the same lines their lines would be doubled. `read` is the
 * document's text the save was made from: a field the editors changed since keeps their text
 * (the body merged with it three ways, both kept where both changed). Says false, touching
 * nothing, when the page has no document or the body would go over its limit (the poll then
 * takes the save as any other).
 */
export async function takeIntoDocument(
  db: Database,
  pageId: number,
  read: DocumentFields,
  saved: DocumentFields,
  version: number,
  by: string | null,
  at: string,
): Promise<boolean> {
  return db.transaction(async (q) => {
    const head = await readHead(q, pageId);
    if (!head) return false;
    const doc = new Y.Doc();
    try {
      await applyStored(q, pageId, doc, 0, null);
      const now = fieldsOf(doc);
      const target: DocumentFields = { ...now };
      for (const field of FIELD_TEXTS) if (now[field] === read[field]) target[field] = saved[field];
      if (now.body !== read.body)
        target.body = mergeBodiesKeepingBoth(now.body, read.body, saved.body);
      if (characterCount(target.body) > BODY_MAX) return false;
      const before = Y.encodeStateVector(doc);
      doc.transact(() => {
        for (const field of FIELD_TEXTS)
          if (target[field] !== now[field])
            replaceText(doc.getText(field), now[field], target[field]);
      });
      const update = Y.encodeStateAsUpdate(doc, before);
      if (FIELD_TEXTS.every((field) => target[field] === now[field])) {
        await q`UPDATE coedit_documents SET written_version = ${version} WHERE page_id = ${pageId}`;
        return true;
      }
      const seq = head.seq + 1;
      await q`UPDATE coedit_documents SET seq = ${seq}, written_version = ${version}
              WHERE page_id = ${pageId}`;
      await insertUpdate(q, db.engine, pageId, seq, update, by, at);
      return true;
    } finally {
      doc.destroy();
    }
  });
}
