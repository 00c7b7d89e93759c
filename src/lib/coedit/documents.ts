// Owns the shared documents this instance has open (docs/decisions/0050): one Y.Doc per page
// that a connection uses, loaded from storage, its editors' updates stored before anything else
// happens to them, other instances' updates read back when they NOTIFY (or when the fallback
// poll finds them), the merged body written as the page's draft a second after the last update,
// and the document unloaded a minute after its last connection left.
//
// An update from a connection goes: checked (size, well-formed, the body's limit) → INSERTed
// and committed → applied here → relayed to this instance's other connections (and, through
// NOTIFY, to other instances') → acknowledged to its sender. "Acknowledged" therefore means
// "committed": an instance that dies after it loses nothing its editors were told was kept.
//
// The protocol is y-protocols' sync and awareness messages, and Folio's own: 4, an
// acknowledgement, carrying how many of the connection's updates are now stored; 5, sent
// first on every connection, the document's identity (identity.ts): a browser keeps its copy
// of the document under it (IndexedDB, decision record 0051) and never merges a copy of
// another document of the page into this one; 6, the connection's person; 7, a notice that the
// page's text was changed from outside the document (notice.ts).
import 'server-only';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import type { ContentStore } from '../content/content';
import { isContentError } from '../content/content';
import { BODY_MAX, characterCount, SUMMARY_MAX, TITLE_MAX } from '../content/field-limits';
import { mergeBodiesKeepingBoth, mergeTexts } from '../content/merge';
import { pageFieldsSchema } from '../content/page-fields';
import { keptBothText } from '../content/text-edits';
import type { Database } from '../data/db';
import { isDatabaseBusy, isDatabaseUnavailable } from '../data/db-errors';
import type { Editor } from '../editors/accounts';
import { can } from '../editors/permissions';
import { reportUnexpectedError } from '../observability/errors';
import { log } from '../observability/log';
import { processSingleton } from '../runtime/process-singleton';
import {
  type AwarenessPerson,
  awarenessPersonOf,
  keyOfState,
  stampAwarenessUpdate,
} from './awareness-identity';
import {
  AWARENESS_CHANNEL,
  AWARENESS_MAX_BYTES,
  awarenessPayload,
  publishAwareness,
  readAwarenessPayload,
} from './awareness-relay';
import { documentIdentity } from './identity';
import { type DraftNotice, encodeNotice } from './notice';
import {
  appendIfAt,
  appendReconciliation,
  appendUpdate,
  applyStored,
  COEDIT_CHANNEL,
  compact,
  createDocument,
  DamagedDocument,
  type DocumentFields,
  dropDamaged,
  FIELD_TEXTS,
  type FieldName,
  fieldsOf,
  markWritten,
  readHead,
  readSeq,
  replaceText,
  seedUpdateOf,
  startAfresh,
  storedFields,
} from './storage';
import { unresolvedIn } from './update-dependencies';

export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
export const MESSAGE_QUERY_AWARENESS = 3;
/** Folio's own: the sender's updates stored so far (a varUint count). */
export const MESSAGE_ACK = 4;
/** Folio's own: the document's identity (a varString), sent before anything else. */
export const MESSAGE_IDENTITY = 5;
/**
 * Folio's own: who the connection's session is (their key, a varString), sent before the sync:
 * a tab opened by one person and let in again under another's session (signed in in the same
 * browser meanwhile) stops before it sends what the first typed as the second's (hostile pass,
 * 2026-11-27).
 */
export const MESSAGE_PERSON = 6;
/**
 * Folio's own: the page's text was changed from outside the document and taken in (a notice,
 * notice.ts, as a varString): the live editors are told who changed it and how.
 */
export const MESSAGE_NOTICE = 7;

export const COEDIT_LIMITS = {
  /** One update's bytes; a larger one closes its connection with 1009. */
  updateBytes: 256 * 1024,
  /** Each field's characters (code points), as for a save (field-limits.ts). */
  bodyCharacters: BODY_MAX,
  titleCharacters: TITLE_MAX,
  summaryCharacters: SUMMARY_MAX,
  /** Connections to one page on one instance. */
  connectionsPerPage: 20,
  /** Awareness messages a connection may send per second; more are dropped. */
  awarenessPerSecond: 20,
  /** Awareness client ids one connection may speak for (a tab has one; reloads make more). */
  awarenessClientsPerConnection: 4,
  /** One awareness update's bytes (what fits a NOTIFY to the other instances); larger dropped. */
  awarenessBytes: AWARENESS_MAX_BYTES,
  /** Updates between compactions into the snapshot. */
  compactEvery: 200,
  /**
   * A document's encoded state — its text and what Yjs keeps of every edit that made it (a
   * deleted character leaves a marker; 200 000 scattered one-character edits of a 20 000-
   * character body leave 2.9 MB, some 34 MB in memory) — beyond which an idle document is
   * started afresh from its text when it is unloaded, if that halves it ("Started afresh").
   */
  documentBytes: 1024 * 1024,
  /**
   * The bound on an open one: past it the document is written as the draft, started afresh and
   * its editors let go (1013; told another document, their tabs open it and merge in what the
   * old one had not stored: live-document.ts). Some 50 MB in memory.
   */
  documentMaxBytes: 4 * 1024 * 1024,
} as const;

/** WebSocket close codes the registry uses. */
export const CLOSE = {
  unsupported: 1003,
  malformed: 1007,
  policy: 1008,
  tooBig: 1009,
  internal: 1011,
  restart: 1012,
  tryAgain: 1013,
  /**
   * The person is signed out, or may no longer edit the page. An application code (4000–4999):
   * the browser's WebSocket tells it apart from the refusals above, which are for good, and the
   * tab keeps its typing and connects again once it is signed in (live-document.ts 'paused').
   */
  signedOut: 4401,
  /**
   * Said to a try (a paused tab connecting again) whose person may not edit the page, or whose
   * page is not at its address any more (the reason: its new slug, or empty when it was
   * deleted): for good, in words of its own (live-document.ts), not "sign in again" every half
   * minute.
   */
  forbidden: 4403,
  gone: 4404,
} as const;

/** A connection as the registry sees it: the WebSocket glue (src/lib/http) makes one. */
export type Connection = {
  editor: Editor;
  /**
   * Who the others see at this connection's caret (awareness-identity.ts); without it, the
   * person's e-mail.
   */
  person?: AwarenessPerson;
  send(message: Uint8Array): void;
  close(code: number, reason: string): void;
};

export type Member = {
  /**
   * A binary frame from the connection; messages are handled one at a time, in order. Resolves
   * once this one is handled (never rejects): the glue holds the next ones meanwhile, within
   * its bound of what a connection may have waiting.
   */
  receive(message: Uint8Array): Promise<void>;
  /** The connection closed. */
  leave(): void;
};

type OpenDocument = {
  pageId: number;
  /** Which of the page's documents this is (identity.ts): its row's page id and creation. */
  identity: string;
  /** When its row was made: every write checks it is still that row (startAfresh). */
  createdAt: string;
  doc: Y.Doc;
  awareness: awarenessProtocol.Awareness;
  members: Set<Joined>;
  /** The stored update this document has applied up to (every one before it too). */
  applied: number;
  /**
   * An upper bound of the document's encoded state: its size at load plus every update
   * applied since (deletions make the real one smaller). Measured exactly when it passes
   * COEDIT_LIMITS.documentBytes (startedAfresh).
   */
  bytes: number;
  snapshotSeq: number;
  /** Work on this document, one task at a time (loading, storing, catching up). */
  queue: Promise<void>;
  idleTimer: ReturnType<typeof setTimeout> | null;
  draftTimer: ReturnType<typeof setTimeout> | null;
  /** The draft being written now, if it is (awaited before the document is let go). */
  writing: Promise<void> | null;
  /** Who typed last here (the draft is saved as theirs). */
  lastEditor: Editor | null;
  /** A draft version not written by the document, seen at the last poll (taken at the next). */
  foreignSeen: number | null;
  /**
   * The latest draft version known to hold nothing this document does not: read from its row
   * once every stored update is applied here, or written here from text this memory holds. A
   * draft of another version, met when the row is deleted (rescueDraft), may hold what another
   * instance stored and this one never heard of: merged, not written over.
   */
  heldVersion: number | null;
  /**
   * The rescue of this document's text running now (rescueDraft), if one is: a second caller
   * (the delete's notification, the poll, the instance stopping) waits for it rather than
   * writing the same text beside it.
   */
  rescuing: Promise<void> | null;
  closed: boolean;
};

type Joined = {
  connection: Connection;
  /** Updates of this connection stored so far. */
  stored: number;
  awarenessTimes: number[];
  /** The awareness client ids this connection announced (removed when it leaves). */
  clientIds: Set<number>;
  queue: Promise<void>;
  gone: boolean;
};

export type CoeditOptions = {
  /** How long a document stays loaded after its last connection left. */
  unloadAfterMs?: number;
  /** How long after the last update the body is written as the draft. */
  draftDelayMs?: number;
  /** How often an open document looks for updates a missed notification did not bring. */
  pollMs?: number;
  /** COEDIT_LIMITS.documentMaxBytes unless told (a test reaches it in seconds). */
  documentMaxBytes?: number;
  now?: () => Date;
};

/** The origin of awareness changes that came from another instance (never sent back out). */
const FROM_ELSEWHERE = Symbol('another instance');
/** The origin of the removal of a connection's awareness when it leaves (sent out). */
const LEFT = Symbol('a connection left');

/** Why a connection may not join, said before the upgrade; null: it may. */
export type JoinRefusal = 'full' | null;

function messageOf(write: (encoder: encoding.Encoder) => void): Uint8Array {
  const encoder = encoding.createEncoder();
  write(encoder);
  return encoding.toUint8Array(encoder);
}

/** What each field may hold, in characters as a save counts them (COEDIT_LIMITS). */
const FIELD_MAX: Record<FieldName, number> = {
  title: COEDIT_LIMITS.titleCharacters,
  summary: COEDIT_LIMITS.summaryCharacters,
  body: COEDIT_LIMITS.bodyCharacters,
};
const FIELD_NAMES: ReadonlySet<string> = new Set(FIELD_TEXTS);
/** A refusal's words, per field over its limit. */
const TOO_LONG: Record<FieldName, string> = {
  title: 'the title would be longer than a title may be',
  summary: 'the summary would be longer than a summary may be',
  body: 'the text would be longer than a page may be',
};

/** Where `entry` stands in storage: the row it was loaded from, at the update it has applied. */
function headOf(entry: OpenDocument): { seq: number; createdAt: string } {
  return { seq: entry.applied, createdAt: entry.createdAt };
}

function pageFieldsOf(page: { title: string; summary: string; bodyMarkdown: string }) {
  return { title: page.title, summary: page.summary, body: page.bodyMarkdown };
}

function sameFields(a: DocumentFields, b: DocumentFields): boolean {
  return a.title === b.title && a.summary === b.summary && a.body === b.body;
}

/**
 * The document's fields as the draft takes them: cleaned as a save cleans them (page-fields.ts,
 * so a title typed with a trailing space is not a change). A title emptied while it is being
 * retyped leaves the page's own in the draft meanwhile (a page must have one), so the body's
 * edits are still written; the document keeps what was typed.
 */
function draftFieldsOf(fields: DocumentFields, page: DocumentFields): DocumentFields {
  const parsed = pageFieldsSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const kept = pageFieldsSchema.safeParse({ ...fields, title: page.title });
  // Anything else invalid (the limits make it unlikely): the save refuses it and says why.
  return kept.success ? kept.data : fields;
}

/** An expected failure of the database (out of reach, busy): said, not reported as a bug. */
function isOutage(error: unknown): boolean {
  return isDatabaseUnavailable(error) || isDatabaseBusy(error);
}

export function createCoeditRegistry(
  db: Database,
  store: ContentStore,
  {
    unloadAfterMs = 60_000,
    draftDelayMs = 1_000,
    documentMaxBytes = COEDIT_LIMITS.documentMaxBytes,
    pollMs = 3_000,
    now = () => new Date(),
  }: CoeditOptions = {},
) {
  const open = new Map<number, OpenDocument>();
  const loading = new Map<number, Promise<OpenDocument | null>>();
  let subscription: { unlisten(): Promise<void> } | null = null;
  /** Applies what is stored after the document's last update; says where it has got to. */
  const readStored = (entry: OpenDocument): Promise<number> =>
    applyStored(db.query, entry.pageId, entry.doc, entry.applied, 'storage');
  let awarenessSubscription: { unlisten(): Promise<void> } | null = null;
  /** This instance's name in awareness notices (it skips its own). */
  const instance = crypto.randomUUID().slice(0, 8);
  /** Awareness notices on their way out (stop lets them go first). */
  const publishing = new Set<Promise<void>>();
  /**
   * Checks started by a notification or the poll, which may write a draft (a rescue): stop waits
   * for them, so none is cut off by the database closing after it (the gate: a rescue begun by
   * the delete's notification outlived stop, and its write met a closed pool).
   */
  const checking = new Set<Promise<void>>();
  const inBackground = (task: () => Promise<unknown>) => {
    const running = task().then(
      () => undefined,
      () => undefined,
    );
    checking.add(running);
    void running.finally(() => checking.delete(running));
  };
  let poller: ReturnType<typeof setInterval> | null = null;
  let stopped = false;

  /** Runs `task` after the document's earlier tasks; a failure is the task's to handle. */
  const enqueue = (entry: OpenDocument, task: () => Promise<void>): Promise<void> => {
    const run = entry.queue.then(task);
    entry.queue = run.catch(() => undefined);
    return run;
  };

  const broadcast = (entry: OpenDocument, message: Uint8Array, except?: Joined) => {
    for (const member of entry.members)
      if (member !== except && !member.gone) send(member, message);
  };

  const send = (member: Joined, message: Uint8Array) => {
    try {
      member.connection.send(message);
    } catch {
      // The socket closed meanwhile: its close handler removes it.
    }
  };

  /**
   * Drops a document from memory and closes its connections (their clients reconnect and
   * resend what storage lacks): what this instance holds must never be ahead of storage.
   */
  const discard = (entry: OpenDocument, code: number, reason: string) => {
    if (entry.closed) return;
    // Their cursors go from the other instances' editors now, not at the 30 s timeout.
    const ids = [...entry.members].flatMap((member) => [...member.clientIds]);
    if (ids.length > 0) awarenessProtocol.removeAwarenessStates(entry.awareness, ids, LEFT);
    entry.closed = true;
    if (open.get(entry.pageId) === entry) open.delete(entry.pageId);
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    if (entry.draftTimer) clearTimeout(entry.draftTimer);
    for (const member of entry.members) {
      member.gone = true;
      member.connection.close(code, reason);
    }
    entry.members.clear();
    entry.awareness.destroy();
    entry.doc.destroy();
  };

  /** The page's text as a first update, and the version it is of; null: no such page. */
  const seedOf = async (pageId: number) => {
    const page = await store.getPageById(pageId);
    if (!page) return null;
    return { update: seedUpdateOf(pageFieldsOf(page)), version: page.version };
  };

  /**
   * Writes the stored document's body as the page's draft, through the store's own save (a
   * version, a checkpoint, the editor's name, as an autosave). The text is merged from the
   * database, not from memory, and the page's version is read before it: a write that lost a
   * race to another instance's (a version conflict) reads both again, so the last write
   * always holds every update stored before it started. False, writing nothing, when the draft
   * is a version another path saved that the document has not taken yet.
   */
  const writeDraft = async (
    pageId: number,
    editor: Editor | null,
    by: string | null,
  ): Promise<boolean> => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const page = await store.getPageById(pageId);
      if (!page) return true;
      const stored = await storedFields(db.query, pageId);
      // No document (its rows deleted by hand, or made again, as this read): nothing of it to
      // write; the instance that holds it writes its memory (rescueDraft).
      if (!stored) return true;
      const fields = draftFieldsOf(stored, pageFieldsOf(page));
      if (sameFields(fields, pageFieldsOf(page))) {
        await markWritten(db, pageId, page.version);
        holds(pageId, fields, page.version);
        return true;
      }
      // A draft saved by another path while the document is open (the form, the CLI): not
      // written over; the poll merges it into the document first (takeForeignDraft).
      const head = await readHead(db.query, pageId);
      if (head?.writtenVersion != null && head.writtenVersion !== page.version) return false;
      const result = await saveFields(page, fields, editor, by);
      if (result.ok) {
        await markWritten(db, pageId, result.version);
        holds(pageId, fields, result.version);
        return true;
      }
    }
    log.warn('co-editing: the draft was saved by others five times meanwhile; written later', {
      pageId,
    });
    return true;
  };

  /**
   * A draft version written with `fields`, the stored text: held by the page's open document
   * here when that is its text too (it can lag what other instances stored; then the poll
   * records the version once it has caught up).
   */
  const holds = (pageId: number, fields: DocumentFields, version: number) => {
    const entry = open.get(pageId);
    if (entry && !entry.closed && sameFields(draftFieldsOf(fieldsOf(entry.doc), fields), fields))
      entry.heldVersion = version;
  };

  /** Saves `fields` as the draft of `page` (at its version), as an autosave by `editor`. */
  const saveFields = async (
    page: { id: number; slug: string; version: number },
    fields: DocumentFields,
    editor: Editor | null,
    by: string | null,
  ) => {
    const ownership = await store.pageOwnership(page.id);
    return store.saveDraft({
      slug: page.slug,
      pageId: page.id,
      ...fields,
      expectedVersion: page.version,
      editor: editor?.email ?? by,
      checkpoint: 'autosave',
      // As an autosave by this person would (save-page.ts changeCancelsSchedule); a write for a
      // person not known here cancels a pending schedule: nothing unreviewed goes live.
      cancelsSchedule:
        ownership !== null && (editor === null || !can(editor, 'page.schedule', ownership)),
      keepsRedirects: editor === null || !can(editor, 'redirect.edit'),
    });
  };

  /**
   * A loaded document whose row was deleted by hand (the page still there) took its stored
   * updates with it: what it acknowledged since its last draft write is only in this memory.
   * Written as the draft before it is let go, so the document made again from the draft holds
   * it — the editors' tabs merge into that only what they had not stored (live-document.ts),
   * and would otherwise find their acknowledged typing missing there (the walk-through: two
   * people typing through such a delete, their paragraphs kept twice). Written whenever the
   * text differs from the draft, a draft write due or not: one that ran after the delete found
   * no stored updates to write.
   *
   * A draft of a version this document does not hold (heldVersion) is merged with, not written
   * over: the text of every field keeps what either has (keptBothText). It is most often another
   * instance's rescue of the same document, which heard an update this one had not, or the other
   * way round — written over, the last writer's missing character was lost everywhere (the second
   * re-check, one round in nine); or a save by another path this document had not taken yet.
   * What is lost the other way is a deletion one copy had not heard of, which stays undone.
   */
  const rescueDraft = (entry: OpenDocument): Promise<void> => {
    if (!entry.rescuing)
      entry.rescuing = writeRescue(entry).finally(() => {
        entry.rescuing = null;
      });
    return entry.rescuing;
  };

  const writeRescue = async (entry: OpenDocument) => {
    await entry.writing;
    if (entry.draftTimer) clearTimeout(entry.draftTimer);
    entry.draftTimer = null;
    try {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const page = await store.getPageById(entry.pageId);
        if (!page) return;
        const theirs = pageFieldsOf(page);
        const mine = fieldsOf(entry.doc);
        const kept =
          page.version === entry.heldVersion
            ? mine
            : {
                title: keptBothText(theirs.title, mine.title),
                summary: keptBothText(theirs.summary, mine.summary),
                body: keptBothText(theirs.body, mine.body),
              };
        const fields = draftFieldsOf(kept, theirs);
        if (sameFields(fields, theirs)) return;
        const result = await saveFields(page, fields, entry.lastEditor, null);
        if (result.ok) {
          log.info(
            'co-editing: the page’s document was deleted; its text was written as the draft',
            {
              pageId: entry.pageId,
              merged: kept !== mine,
            },
          );
          entry.heldVersion = result.version;
          return;
        }
        // Another instance's rescue (or a save) came first: its text is merged with, next time.
      }
      log.warn('co-editing: the text of a deleted document met five other saves; not written', {
        pageId: entry.pageId,
      });
    } catch (error) {
      if (!isOutage(error) && !isContentError(error)) throw error;
      log.warn('co-editing: the text of a deleted document could not be written as the draft', {
        pageId: entry.pageId,
      });
    }
  };

  const saveDraftNow = async (entry: OpenDocument) => {
    if (entry.draftTimer) clearTimeout(entry.draftTimer);
    entry.draftTimer = null;
    // One write at a time per document: the next one reads what the last one left.
    const previous = entry.writing ?? Promise.resolve();
    let damaged = false;
    const writing = previous.then(async () => {
      try {
        const written = await writeDraft(entry.pageId, entry.lastEditor, null);
        // Written once the poll has merged the other save in.
        if (written === false && !entry.closed) draftSoon(entry, pollMs);
      } catch (error) {
        if (error instanceof DamagedDocument) damaged = true;
        else if (isOutage(error) || isContentError(error))
          log.warn('co-editing: the draft could not be written', {
            pageId: entry.pageId,
            reason: error instanceof Error ? error.message : String(error),
          });
        else reportUnexpectedError(error, { where: 'co-editing: writing the draft' });
      }
    });
    entry.writing = writing;
    await writing;
    if (entry.writing === writing) entry.writing = null;
    if (damaged) await repairDamaged(entry);
  };

  /**
   * The stored document lost updates (DamagedDocument: some of its rows deleted by hand), so
   * nothing can read it whole again, nor write a draft from it. This memory holds it (every
   * update this instance stored or read): written as the draft (rescueDraft, merged with one
   * another instance wrote), then the row dropped — the other instances holding it, told, do the
   * same — and its editors let go, to open the document made again from that draft.
   */
  const repairDamaged = async (entry: OpenDocument) => {
    if (entry.closed) return;
    log.warn(
      'co-editing: a page’s stored document is missing updates; its text is written from memory and it is made again',
      {
        pageId: entry.pageId,
      },
    );
    try {
      // Whatever was stored after what this memory has, and is still there, first.
      entry.applied = await readStored(entry);
    } catch (error) {
      if (!(error instanceof DamagedDocument) && !isOutage(error)) throw error;
    }
    await rescueDraft(entry);
    try {
      await dropDamaged(db, entry.pageId, entry.createdAt);
    } catch (error) {
      if (!isOutage(error)) throw error;
      return;
    }
    if (!entry.closed) discard(entry, CLOSE.tryAgain, 'the page’s shared document was made again');
  };

  const draftSoon = (entry: OpenDocument, delayMs = draftDelayMs) => {
    if (entry.draftTimer) clearTimeout(entry.draftTimer);
    entry.draftTimer = setTimeout(() => {
      entry.draftTimer = null;
      void saveDraftNow(entry);
    }, delayMs);
  };

  /**
   * On the poll: a draft version the document did not write (the form's save, the CLI's `page
   * put`) is merged into the open document as one edit — the live clients get it, and the next
   * draft written holds both. Taken when seen at two polls in a row, so another instance's own
   * write, between its save and its recording of the version, is never taken for one. Merged
   * three ways from the text the document last wrote; where both changed the same lines the
   * document's text stays (as the form's merge keeps the editor's), and with that text no
   * longer kept, the save's text is taken.
   */
  const takeForeignDraft = (entry: OpenDocument, atOnce = false) =>
    enqueue(entry, async () => {
      if (entry.closed || entry.writing) return;
      const page = await store.getPageById(entry.pageId);
      const head = await readHead(db.query, entry.pageId);
      if (!page || !head || head.writtenVersion === page.version) {
        entry.foreignSeen = null;
        return;
      }
      const theirs = pageFieldsOf(page);
      const mine = draftFieldsOf(fieldsOf(entry.doc), theirs);
      if (sameFields(mine, theirs)) {
        entry.foreignSeen = null;
        await markWritten(db, entry.pageId, page.version);
        return;
      }
      if (!atOnce && entry.foreignSeen !== page.version) {
        entry.foreignSeen = page.version;
        return;
      }
      entry.foreignSeen = null;
      const base =
        head.writtenVersion === null
          ? null
          : await store.textAtVersion(entry.pageId, head.writtenVersion);
      // A discard or a restore replaces the draft: taken as it is when the document holds
      // nothing its last written draft did not (that draft is in the history), as it does when
      // the change was made here (the action has the document's draft written first). Merged,
      // both sides of every line the discard took back and the typing touched were kept, the
      // discarded paragraph beside the published one, or the discard quietly undone (hostile
      // pass). Typing the written draft lacks is merged as any other change is, and said.
      const replaces = page.lastChange === 'discarded' || page.lastChange === 'restored';
      const unwritten = base === null || !sameFields(mine, base);
      // Otherwise title and summary are one value each (the form's merge): the save's, unless
      // the document changed it too. Where both changed the same lines of the body, both are
      // kept (the document's, then the save's): the save was answered "saved", and the live
      // editors see both and choose — keeping only the document's threw the save's lines away
      // (hostile pass). With no base kept, every difference is such a place.
      const merged =
        replaces && !unwritten
          ? theirs
          : {
              ...mergeTexts(mine, base, theirs).text,
              body: mergeBodiesKeepingBoth(mine.body, base?.body ?? null, theirs.body),
            };
      // Only what the merge changed is touched: the rest stays as typed.
      const changes: Partial<DocumentFields> = {};
      for (const field of FIELD_TEXTS)
        if (merged[field] !== mine[field]) changes[field] = merged[field];
      const update = replacementUpdate(entry.doc, changes);
      const seq = await appendReconciliation(
        db,
        entry.pageId,
        headOf(entry),
        page.version,
        update,
        page.updatedBy,
        now().toISOString(),
      );
      // Something was stored meanwhile: the next poll reads it and looks again.
      if (seq === null) return;
      Y.applyUpdate(entry.doc, update, 'storage');
      entry.applied = seq;
      if (!sameFields(merged, theirs)) draftSoon(entry);
      // The live editors see their text change: they are told why, here and on the other
      // instances (a Discard draft took away what they were reading, silently, before); a
      // discard or restore their typing outlived is said too.
      if (Object.keys(changes).length > 0 || replaces) {
        // The CLI writes as 'cli' (src/cli/commands/page.ts): nobody's name or key.
        const by = page.updatedBy === 'cli' ? null : page.updatedBy;
        const byKey = by === null ? null : awarenessPersonOf(by, null).key;
        tell(entry.pageId, {
          change: page.lastChange,
          by: nameOf(entry, byKey) ?? by,
          byKey,
          at: now().toISOString(),
          ...(replaces && unwritten ? { kept: true } : {}),
        });
      }
    }).catch((error) => {
      if (!isOutage(error))
        reportUnexpectedError(error, { where: 'co-editing: taking a draft saved elsewhere' });
    });

  /** Reads and applies what other instances stored since this one last looked. */
  const catchUp = (entry: OpenDocument) =>
    enqueue(entry, async () => {
      if (entry.closed) return;
      try {
        entry.applied = await readStored(entry);
      } catch (error) {
        if (error instanceof DamagedDocument) await repairDamaged(entry);
        else if (!isOutage(error)) throw error;
        // The poll tries again in a few seconds.
      }
    }).catch((error) =>
      reportUnexpectedError(error, { where: 'co-editing: reading stored updates' }),
    );

  const load = async (pageId: number): Promise<OpenDocument | null> => {
    let head = await readHead(db.query, pageId);
    if (!head) {
      const made = await createDocument(db, pageId, () => seedOf(pageId), now().toISOString());
      if (!made) return null;
      head = await readHead(db.query, pageId);
      if (!head) return null;
    }
    const doc = new Y.Doc({ gc: true });
    // Missing updates: nothing here holds it, so it is dropped, and the instances that do (told
    // at once on PostgreSQL) write what they hold as the draft; the join is tried again, and the
    // document made from that draft.
    const damaged = async (error: DamagedDocument, createdAt: string) => {
      log.warn('co-editing: a page’s stored document is missing updates; it is made again', {
        pageId,
        reason: error.message,
      });
      await dropDamaged(db, pageId, createdAt);
      return null;
    };
    let applied: number;
    try {
      applied = await applyStored(db.query, pageId, doc, 0, 'storage');
      // Edits that build on what is not stored: a snapshot made across missing updates.
      if (doc.store.pendingStructs !== null || doc.store.pendingDs !== null)
        throw new DamagedDocument(pageId, 0, null);
    } catch (error) {
      doc.destroy();
      if (!(error instanceof DamagedDocument)) throw error;
      return damaged(error, head.createdAt);
    }
    // Fields no stored update has touched: a document made before they were in it (or an empty
    // one). Asked before anything here names them (which would make them).
    const untouched = FIELD_TEXTS.filter((field) => !doc.share.has(field));
    const entry: OpenDocument = {
      pageId,
      identity: documentIdentity(pageId, head.createdAt),
      createdAt: head.createdAt,
      doc,
      awareness: new awarenessProtocol.Awareness(doc),
      members: new Set(),
      applied,
      bytes: Y.encodeStateAsUpdate(doc).byteLength,
      snapshotSeq: head.snapshotSeq,
      queue: Promise.resolve(),
      idleTimer: null,
      draftTimer: null,
      writing: null,
      lastEditor: null,
      foreignSeen: null,
      heldVersion: head.writtenVersion,
      rescuing: null,
      closed: false,
    };
    // The server takes part in no awareness of its own.
    entry.awareness.setLocalState(null);
    doc.on('update', (update: Uint8Array, origin: unknown) => {
      entry.bytes += update.byteLength;
      const except = origin && typeof origin === 'object' && 'connection' in origin ? origin : null;
      broadcast(
        entry,
        messageOf((encoder) => {
          encoding.writeVarUint(encoder, MESSAGE_SYNC);
          syncProtocol.writeUpdate(encoder, update);
        }),
        (except as Joined | null) ?? undefined,
      );
    });
    entry.awareness.on(
      'update',
      (
        { added, updated, removed }: { added: number[]; updated: number[]; removed: number[] },
        origin: unknown,
      ) => {
        const changed = [...added, ...updated, ...removed];
        const from = origin as Joined | null;
        if (from && typeof from === 'object' && 'clientIds' in from) {
          for (const id of added) from.clientIds.add(id);
          for (const id of removed) from.clientIds.delete(id);
        }
        const update = awarenessProtocol.encodeAwarenessUpdate(entry.awareness, changed);
        broadcast(
          entry,
          messageOf((encoder) => {
            encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
            encoding.writeVarUint8Array(encoder, update);
          }),
        );
        // What a connection here said or its leaving crosses; what came from elsewhere, and
        // y-protocols' own timeouts (each instance times out states on its own), do not.
        if (origin === LEFT || (from && typeof from === 'object' && 'clientIds' in from))
          crossAwareness(entry.pageId, update);
      },
    );
    try {
      if (
        !(await fillUntouched(entry, untouched)) ||
        !(await reconcileDraft(entry, head.writtenVersion))
      ) {
        discard(entry, CLOSE.gone, '');
        return null;
      }
    } catch (error) {
      if (!(error instanceof DamagedDocument)) throw error;
      discard(entry, CLOSE.tryAgain, 'the page’s shared document was made again');
      return damaged(error, head.createdAt);
    }
    return entry;
  };

  /**
   * At load: a document made before title and summary were in it has neither, and would write
   * them as empty: they are filled from the page, stored like any update — only if nothing was
   * stored meanwhile, so two instances loading it at once fill them once.
   */
  const fillUntouched = async (entry: OpenDocument, untouched: FieldName[]): Promise<boolean> => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const page = await store.getPageById(entry.pageId);
      if (!page) return false;
      const fields = pageFieldsOf(page);
      const changes: Partial<DocumentFields> = {};
      for (const field of untouched)
        if (!entry.doc.share.has(field) && fields[field] !== '') changes[field] = fields[field];
      if (Object.keys(changes).length === 0) return true;
      const update = replacementUpdate(entry.doc, changes);
      const seq = await appendIfAt(db, entry.pageId, headOf(entry), update, now().toISOString());
      if (seq !== null) {
        Y.applyUpdate(entry.doc, update, 'storage');
        entry.applied = seq;
        return true;
      }
      // Another instance stored something (perhaps these same fields): read it, look again.
      entry.applied = await readStored(entry);
    }
    return true;
  };

  /**
   * At load: a draft saved meanwhile by another path (the editor's form or autosave, the CLI)
   * becomes an edit of the document, so it is kept rather than written over; and a draft the
   * document has not written yet (its instance stopped first) is written now.
   */
  const reconcileDraft = async (
    entry: OpenDocument,
    writtenVersion: number | null,
  ): Promise<boolean> => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const page = await store.getPageById(entry.pageId);
      if (!page) return false;
      const theirs = pageFieldsOf(page);
      const mine = fieldsOf(entry.doc);
      if (sameFields(draftFieldsOf(mine, theirs), theirs)) return true;
      if (writtenVersion === page.version) {
        draftSoon(entry);
        return true;
      }
      const changes: Partial<DocumentFields> = {};
      for (const field of FIELD_TEXTS)
        if (mine[field] !== theirs[field]) changes[field] = theirs[field];
      const update = replacementUpdate(entry.doc, changes);
      const seq = await appendReconciliation(
        db,
        entry.pageId,
        headOf(entry),
        page.version,
        update,
        page.updatedBy,
        now().toISOString(),
      );
      if (seq !== null) {
        Y.applyUpdate(entry.doc, update, 'storage');
        entry.applied = seq;
        return true;
      }
      // Another instance stored something meanwhile (perhaps this same difference): read it,
      // and look again.
      entry.applied = await readStored(entry);
      writtenVersion = (await readHead(db.query, entry.pageId))?.writtenVersion ?? null;
    }
    return true;
  };

  /**
   * Whether the stored row is still the one this document was loaded from. One made again (its
   * row deleted by hand while loaded here, the page still there) is another document: this one
   * is let go (1013: its clients connect again, are told the new identity, and do not merge
   * into it what they hold of the old one). A page deleted is left to the next update's refusal.
   */
  const stillTheSame = async (
    entry: OpenDocument,
    stored: { createdAt: string } | null,
  ): Promise<boolean> => {
    if (entry.closed) return false;
    if (stored !== null && documentIdentity(entry.pageId, stored.createdAt) === entry.identity)
      return true;
    if (stored === null && !(await store.getPageById(entry.pageId))) return true;
    if (stored === null) await rescueDraft(entry);
    if (entry.closed) return false;
    log.info('co-editing: the page’s document was made again; the loaded one is let go', {
      pageId: entry.pageId,
    });
    discard(entry, CLOSE.tryAgain, 'the page’s shared document was made again');
    return false;
  };

  const documentOf = async (pageId: number): Promise<OpenDocument | null> => {
    const found = open.get(pageId);
    if (found) return found;
    let pending = loading.get(pageId);
    if (!pending) {
      pending = load(pageId).finally(() => loading.delete(pageId));
      loading.set(pageId, pending);
    }
    const entry = await pending;
    if (stopped) {
      // Loaded while the registry stopped: not kept open in a registry that serves nobody.
      if (entry && open.get(pageId) !== entry) discard(entry, CLOSE.restart, 'stopped');
      return null;
    }
    if (entry && !open.has(pageId)) {
      open.set(pageId, entry);
      // Whoever is on this page on other instances sends their states at once (once it is
      // open here to take them), not at their next renewal.
      crossAwareness(pageId, 'query');
    }
    return open.get(pageId) ?? null;
  };

  const unloadLater = (entry: OpenDocument) => {
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      entry.idleTimer = null;
      if (entry.members.size > 0 || entry.closed) return;
      void enqueue(entry, async () => {
        if (entry.members.size > 0) return;
        if (entry.draftTimer) await saveDraftNow(entry);
        await entry.writing;
        if (entry.members.size > 0) return;
        await startAfreshIfOutgrown(entry);
        discard(entry, CLOSE.restart, 'unloaded');
      });
    }, unloadAfterMs);
  };

  /**
   * Started afresh: Yjs keeps a marker of every edit a document has taken, so a page edited
   * for long enough holds far more than its text (the field limits bound what is shown, not
   * that). A document past COEDIT_LIMITS.documentBytes is made again from its text when it is
   * unloaded — idle here, nobody on it at another instance (their cursors would be in its
   * awareness), nothing stored since this instance read it (startAfresh checks that in its
   * transaction) — if that halves it. The text is the same, as is the draft it wrote; browsers
   * that kept a copy of the old one are told another identity at their next connection and
   * drop it (identity.ts), what it held unsent offered by the form's backup.
   */
  const startAfreshIfOutgrown = async (entry: OpenDocument): Promise<void> => {
    if (entry.bytes <= COEDIT_LIMITS.documentBytes || entry.awareness.getStates().size > 0) return;
    const bytes = Y.encodeStateAsUpdate(entry.doc).byteLength;
    entry.bytes = bytes;
    if (bytes <= COEDIT_LIMITS.documentBytes) return;
    const seed = seedUpdateOf(fieldsOf(entry.doc));
    if (seed.byteLength * 2 > bytes) return;
    await makeAfresh(entry, bytes, seed, 'idle');
  };

  /**
   * The bound on an open document (COEDIT_LIMITS.documentMaxBytes), asked after an update is
   * stored: measured only when the upper bound `entry.bytes` passes it. Within three quarters
   * of it, the document is written as the draft and made again from its text, and its editors
   * let go; below that the measure stands until that much more was typed.
   */
  const boundOpenDocument = async (entry: OpenDocument): Promise<void> => {
    if (entry.bytes <= documentMaxBytes) return;
    const bytes = Y.encodeStateAsUpdate(entry.doc).byteLength;
    entry.bytes = bytes;
    if (bytes <= (documentMaxBytes * 3) / 4) return;
    if (entry.draftTimer) await saveDraftNow(entry);
    await entry.writing;
    if (entry.closed) return;
    await makeAfresh(entry, bytes, seedUpdateOf(fieldsOf(entry.doc)), 'open');
  };

  const makeAfresh = async (
    entry: OpenDocument,
    bytes: number,
    seed: Uint8Array,
    when: 'idle' | 'open',
  ): Promise<void> => {
    let made: string | null;
    try {
      made = await startAfresh(db, entry.pageId, headOf(entry), seed, now());
    } catch (error) {
      if (!isOutage(error)) throw error;
      return;
    }
    // Something was stored meanwhile (another instance's editor): asked again later.
    if (made === null) return;
    log.info('co-editing: a document grown past its bound was started afresh from its text', {
      pageId: entry.pageId,
      when,
      bytes,
      afresh: seed.byteLength,
    });
    // Whoever joined meanwhile holds the old one: they connect again and are told the new.
    discard(entry, CLOSE.tryAgain, 'the page’s shared document was started afresh');
  };

  /** Stores one update of `member`'s, applies and relays it, then acknowledges it. */
  const receiveUpdate = async (entry: OpenDocument, member: Joined, update: Uint8Array) => {
    if (update.byteLength > COEDIT_LIMITS.updateBytes) {
      log.info('co-editing: an update over the size limit was refused', {
        pageId: entry.pageId,
        bytes: update.byteLength,
      });
      return refuse(member, CLOSE.tooBig, 'update too large');
    }
    let empty: boolean;
    let elsewhere: boolean;
    let decoded: ReturnType<typeof Y.decodeUpdate>;
    try {
      decoded = Y.decodeUpdate(update);
      empty = decoded.structs.length === 0 && decoded.ds.clients.size === 0;
      // Only the page's fields are the page's, and only as text: anything put beside them
      // (another shared type, keys set on a text as if it were a map, formatting, embedded
      // objects) would be stored and carried by every load, and shown nowhere.
      elsewhere = decoded.structs.some(
        (struct) =>
          struct instanceof Y.Item &&
          ((typeof struct.parent === 'string' &&
            (!FIELD_NAMES.has(struct.parent) || struct.parentSub !== null)) ||
            !(
              struct.content instanceof Y.ContentString ||
              struct.content instanceof Y.ContentDeleted
            )),
      );
    } catch {
      return refuse(member, CLOSE.malformed, 'malformed update');
    }
    if (elsewhere) {
      log.info('co-editing: an update outside the page’s text fields was refused', {
        pageId: entry.pageId,
      });
      return refuse(member, CLOSE.policy, 'only the title, summary and body can be edited here');
    }
    await enqueue(entry, async () => {
      if (entry.closed || member.gone) return;
      // Nothing in it (a sync reply from a client with nothing new): acknowledged, not stored.
      if (empty) return acknowledge(member);
      let unresolved = unresolvedIn(entry.doc, decoded);
      if (unresolved) {
        // It may build on what another instance stored a moment ago (a browser back from an
        // instance that went away): what is stored is read first, then it is asked again.
        try {
          entry.applied = await readStored(entry);
        } catch (error) {
          // Not acknowledged: the tab sends it again to the document made again.
          if (error instanceof DamagedDocument) return repairDamaged(entry);
          if (!isOutage(error)) throw error;
          return refuse(member, CLOSE.tryAgain, 'the database is out of reach');
        }
        unresolved = unresolvedIn(entry.doc, decoded);
      }
      if (unresolved) {
        log.info('co-editing: an update building on text the page does not have was refused', {
          pageId: entry.pageId,
          why: unresolved,
        });
        return refuse(member, CLOSE.policy, 'this change builds on text the page does not have');
      }
      const over = overLimit(entry.doc, update);
      if (over) {
        log.info('co-editing: an update taking a field over its limit was refused', {
          pageId: entry.pageId,
          field: over,
        });
        return refuse(member, CLOSE.policy, TOO_LONG[over]);
      }
      let stored: Awaited<ReturnType<typeof appendUpdate>>;
      try {
        stored = await appendUpdate(
          db,
          entry.pageId,
          entry.createdAt,
          update,
          member.connection.editor.email,
          now().toISOString(),
        );
      } catch (error) {
        if (!isOutage(error)) throw error;
        // Not stored, not acknowledged: the client keeps it and sends it again on reconnect.
        log.warn('co-editing: an update could not be stored; its connection is asked to retry', {
          pageId: entry.pageId,
        });
        return refuse(member, CLOSE.tryAgain, 'the database is out of reach');
      }
      if (!stored) {
        // Gone with its page, or made again (started afresh at another instance: stillTheSame
        // lets this one go for its editors to be told the new one). Not acknowledged either way.
        let row: Awaited<ReturnType<typeof readSeq>>;
        try {
          row = await readSeq(db.query, entry.pageId);
        } catch (error) {
          if (!isOutage(error)) throw error;
          return refuse(member, CLOSE.tryAgain, 'the database is out of reach');
        }
        if (await stillTheSame(entry, row)) discard(entry, CLOSE.gone, '');
        return;
      }
      Y.applyUpdate(entry.doc, update, member);
      let damaged = false;
      if (stored.seq === entry.applied + 1) entry.applied = stored.seq;
      else
        try {
          entry.applied = await readStored(entry);
        } catch (error) {
          if (error instanceof DamagedDocument) damaged = true;
          else if (!isOutage(error)) throw error;
          // Stored: acknowledged. What came between is read by the next poll (applying this
          // update again then is harmless).
        }
      acknowledge(member);
      entry.lastEditor = member.connection.editor;
      // Acknowledged first: it is in this memory, which the repair writes as the draft.
      if (damaged) return repairDamaged(entry);
      draftSoon(entry);
      if (stored.seq - stored.snapshotSeq >= COEDIT_LIMITS.compactEvery) {
        try {
          entry.snapshotSeq = (await compact(db, entry.pageId)) ?? entry.snapshotSeq;
        } catch (error) {
          if (!isOutage(error)) throw error;
        }
      }
      await boundOpenDocument(entry);
    });
  };

  /** Tells `member` that one more of its updates is kept (Folio's message 4: the count). */
  const acknowledge = (member: Joined) => {
    member.stored += 1;
    send(
      member,
      messageOf((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_ACK);
        encoding.writeVarUint(encoder, member.stored);
      }),
    );
  };

  const refuse = (member: Joined, code: number, reason: string) => {
    member.gone = true;
    member.connection.close(code, reason);
  };

  const handle = async (entry: OpenDocument, member: Joined, message: Uint8Array) => {
    if (member.gone || entry.closed) return;
    const decoder = decoding.createDecoder(message);
    let kind: number;
    try {
      kind = decoding.readVarUint(decoder);
    } catch {
      return refuse(member, CLOSE.malformed, 'malformed message');
    }
    if (kind === MESSAGE_SYNC) {
      let step: number;
      let payload: Uint8Array;
      try {
        step = decoding.readVarUint(decoder);
        payload = decoding.readVarUint8Array(decoder);
      } catch {
        return refuse(member, CLOSE.malformed, 'malformed message');
      }
      if (step === syncProtocol.messageYjsSyncStep1) {
        let reply: Uint8Array;
        try {
          reply = messageOf((encoder) => {
            encoding.writeVarUint(encoder, MESSAGE_SYNC);
            syncProtocol.writeSyncStep2(encoder, entry.doc, payload);
          });
        } catch {
          return refuse(member, CLOSE.malformed, 'malformed state vector');
        }
        return send(member, reply);
      }
      if (step === syncProtocol.messageYjsSyncStep2 || step === syncProtocol.messageYjsUpdate)
        return receiveUpdate(entry, member, payload);
      return refuse(member, CLOSE.malformed, 'unknown sync message');
    }
    if (kind === MESSAGE_AWARENESS) {
      const at = Date.now();
      member.awarenessTimes = member.awarenessTimes.filter((t) => at - t < 1_000);
      // Over the rate: dropped (a cursor's next move says the same again).
      if (member.awarenessTimes.length >= COEDIT_LIMITS.awarenessPerSecond) return;
      member.awarenessTimes.push(at);
      try {
        const update = decoding.readVarUint8Array(decoder);
        // Larger than crosses to the other instances: dropped here too (a real client's
        // state is a few hundred bytes), and the connection kept.
        if (update.byteLength > COEDIT_LIMITS.awarenessBytes) {
          log.info('co-editing: an awareness update over the size limit was dropped', {
            pageId: entry.pageId,
            bytes: update.byteLength,
          });
          return;
        }
        const person =
          member.connection.person ?? awarenessPersonOf(member.connection.editor.email, null);
        const stampedUpdate = stampAwarenessUpdate(update, person, (clientId) =>
          mayAnnounce(entry, member, clientId, person.key),
        );
        if (!stampedUpdate) return;
        awarenessProtocol.applyAwarenessUpdate(entry.awareness, stampedUpdate, member);
      } catch {
        return refuse(member, CLOSE.malformed, 'malformed awareness');
      }
      return;
    }
    if (kind === MESSAGE_QUERY_AWARENESS) return sendAwareness(entry, member);
    return refuse(member, CLOSE.unsupported, 'unknown message type');
  };

  /**
   * Whether `member` may speak for awareness client `clientId`: one it announced, or a new one
   * (a tab's document has one; a few allow for reloads), or one another instance relayed for the
   * same person (their tab came back here after its instance went away). Never another
   * connection's here, nor another person's: a caret is not someone else's to move or remove.
   */
  const mayAnnounce = (entry: OpenDocument, member: Joined, clientId: number, key: string) => {
    if (member.clientIds.has(clientId)) return true;
    for (const other of entry.members)
      if (other !== member && other.clientIds.has(clientId)) return false;
    const known = entry.awareness.getStates().get(clientId);
    if (known !== undefined && keyOfState(known) !== key) return false;
    if (member.clientIds.size >= COEDIT_LIMITS.awarenessClientsPerConnection) return false;
    member.clientIds.add(clientId);
    return true;
  };

  const sendAwareness = (entry: OpenDocument, member: Joined) => {
    const states = [...entry.awareness.getStates().keys()];
    if (states.length === 0) return;
    send(
      member,
      messageOf((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
        encoding.writeVarUint8Array(
          encoder,
          awarenessProtocol.encodeAwarenessUpdate(entry.awareness, states),
        );
      }),
    );
  };

  /**
   * Sends an awareness change (or a request for others' states) to the other instances
   * (PostgreSQL; awareness-relay.ts). Nothing is stored and nothing waits for it: a notice lost
   * to an outage is made good by the client's next renewal (every 15 s).
   */
  const crossAwareness = (pageId: number, what: Uint8Array | 'query' | { notice: string }) => {
    if (db.engine !== 'postgres' || stopped) return;
    if (what instanceof Uint8Array && what.byteLength > COEDIT_LIMITS.awarenessBytes) {
      log.info('co-editing: an awareness change too large to cross was not sent', {
        pageId,
        bytes: what.byteLength,
      });
      return;
    }
    const sending = publishAwareness(db, awarenessPayload(pageId, instance, what)).catch(
      (error) => {
        if (!isOutage(error))
          reportUnexpectedError(error, { where: 'co-editing: sending awareness' });
      },
    );
    publishing.add(sending);
    void sending.finally(() => publishing.delete(sending));
  };

  /** The name `key`'s person goes by on this instance's connections to the page, if any. */
  const nameOf = (entry: OpenDocument, key: string | null): string | null => {
    if (key === null) return null;
    for (const member of entry.members) {
      const person =
        member.connection.person ?? awarenessPersonOf(member.connection.editor.email, null);
      if (person.key === key) return person.name;
    }
    return null;
  };

  /** Tells the page's live editors here, and on the other instances, of `notice`. */
  const tell = (pageId: number, notice: DraftNotice | string) => {
    const text = typeof notice === 'string' ? notice : encodeNotice(notice);
    const entry = open.get(pageId);
    if (entry && !entry.closed)
      broadcast(
        entry,
        messageOf((encoder) => {
          encoding.writeVarUint(encoder, MESSAGE_NOTICE);
          encoding.writeVarString(encoder, text);
        }),
      );
    if (typeof notice === 'string') return;
    crossAwareness(pageId, { notice: text });
  };

  /** An awareness notice from another instance, for a page open here. */
  const onAwarenessNotify = (payload: string) => {
    const notice = readAwarenessPayload(payload);
    if (!notice || notice.instance === instance) return;
    const entry = open.get(notice.pageId);
    if (!entry || entry.closed) return;
    // Told here as it was there (the words are checked by the browser, notice.ts).
    if ('notice' in notice) return tell(notice.pageId, notice.notice);
    if ('query' in notice) {
      const ids = [...entry.members].flatMap((member) => [...member.clientIds]);
      const here = ids.filter((id) => entry.awareness.getStates().has(id));
      if (here.length > 0)
        crossAwareness(
          entry.pageId,
          awarenessProtocol.encodeAwarenessUpdate(entry.awareness, here),
        );
      return;
    }
    try {
      awarenessProtocol.applyAwarenessUpdate(entry.awareness, notice.update, FROM_ELSEWHERE);
    } catch {
      // Not one of ours after all (only instances send on the channel): ignored.
    }
  };

  const onNotify = (payload: string) => {
    const [pageText, what] = payload.split(':');
    const entry = open.get(Number(pageText));
    if (!entry || what === undefined) return;
    // The document's row deleted (migration 34's trigger): looked at now, not at the next poll,
    // so what this instance alone stored is rescued before anyone seeds a new document.
    if (what === 'gone') {
      inBackground(async () => stillTheSame(entry, await readSeq(db.query, entry.pageId)));
      return;
    }
    if (Number(what) > entry.applied) void catchUp(entry);
  };

  return {
    /** Whether one more connection may join `pageId` here. */
    mayJoin(pageId: number): JoinRefusal {
      const entry = open.get(pageId);
      return entry && entry.members.size >= COEDIT_LIMITS.connectionsPerPage ? 'full' : null;
    },

    /**
     * Opens the page's document (loading or making it) and joins `connection` to it: it is
     * sent the server's sync step 1 and who is here. Null when it could not join, the
     * connection closed saying why: the page gone (4404, for good), or try again (1012 the
     * server stopping, 1013 the document let go meanwhile) — never a refusal for good where a
     * reconnect would do, which would stop a tab's live editing on a deploy.
     */
    async join(pageId: number, connection: Connection): Promise<Member | null> {
      if (stopped) {
        connection.close(CLOSE.restart, 'the server is restarting');
        return null;
      }
      let entry = await documentOf(pageId);
      if (!entry && !stopped) {
        // The page gone, for good; or its document was damaged and dropped: tried again.
        if (await store.getPageById(pageId)) connection.close(CLOSE.tryAgain, 'try again');
        else connection.close(CLOSE.gone, '');
        return null;
      }
      for (let attempt = 0; entry && attempt < 5; attempt += 1) {
        // Unloaded while this one was on its way: open it again.
        if (entry.closed) entry = await documentOf(pageId);
        // Its row made again meanwhile (deleted by hand): the new one is loaded, or a
        // browser's copy of the old one would be merged into it through this connection.
        else if (!(await stillTheSame(entry, await readSeq(db.query, pageId))))
          entry = await documentOf(pageId);
        else break;
      }
      if (stopped || !entry || entry.closed) {
        // Let go while this one waited (the server stopping, the document made again or
        // unloaded over and over): a reconnect finds it.
        if (stopped) connection.close(CLOSE.restart, 'the server is restarting');
        else connection.close(CLOSE.tryAgain, 'try again');
        return null;
      }
      const member: Joined = {
        connection,
        stored: 0,
        awarenessTimes: [],
        clientIds: new Set(),
        queue: Promise.resolve(),
        gone: false,
      };
      if (entry.members.size >= COEDIT_LIMITS.connectionsPerPage) {
        connection.close(CLOSE.tryAgain, 'too many people on this page');
        return null;
      }
      entry.members.add(member);
      if (entry.idleTimer) clearTimeout(entry.idleTimer);
      entry.idleTimer = null;
      // First: the client opens its copy of this document only, and refuses to go on with a
      // document of another identity than the one it has been editing (identity.ts).
      send(
        member,
        messageOf((encoder) => {
          encoding.writeVarUint(encoder, MESSAGE_IDENTITY);
          encoding.writeVarString(encoder, entry.identity);
        }),
      );
      send(
        member,
        messageOf((encoder) => {
          encoding.writeVarUint(encoder, MESSAGE_PERSON);
          encoding.writeVarString(
            encoder,
            (connection.person ?? awarenessPersonOf(connection.editor.email, null)).key,
          );
        }),
      );
      send(
        member,
        messageOf((encoder) => {
          encoding.writeVarUint(encoder, MESSAGE_SYNC);
          syncProtocol.writeSyncStep1(encoder, entry.doc);
        }),
      );
      sendAwareness(entry, member);
      return {
        receive(message) {
          member.queue = member.queue
            .then(() => handle(entry, member, message))
            .catch((error) => {
              // The database slow or out of reach at some step after the update was checked
              // (hostile pass: a 4 s timeout under load closed it 1011 and was reported as a
              // bug): the client keeps what is unacknowledged and sends it again.
              if (isOutage(error))
                return refuse(member, CLOSE.tryAgain, 'the database is out of reach');
              reportUnexpectedError(error, { where: 'co-editing: a message' });
              refuse(member, CLOSE.internal, 'server error');
            });
          return member.queue;
        },
        leave() {
          member.gone = true;
          entry.members.delete(member);
          if (member.clientIds.size > 0)
            awarenessProtocol.removeAwarenessStates(entry.awareness, [...member.clientIds], LEFT);
          if (entry.members.size === 0 && !entry.closed) unloadLater(entry);
        },
      };
    },

    /** Follows other instances' updates (PostgreSQL: LISTEN, and a poll for missed ones). */
    async follow(): Promise<void> {
      if (db.engine === 'postgres')
        subscription = await db.client.listen(COEDIT_CHANNEL, onNotify, () => {
          // After every (re)connect: whatever was stored meanwhile is read now.
          for (const entry of open.values()) void catchUp(entry);
        });
      if (db.engine === 'postgres')
        awarenessSubscription = await db.client.listen(AWARENESS_CHANNEL, onAwarenessNotify, () => {
          // After a reconnect: states sent meanwhile were missed; ask for them again.
          for (const entry of open.values()) crossAwareness(entry.pageId, 'query');
        });
      poller = setInterval(() => {
        for (const entry of open.values())
          inBackground(async () => {
            const stored = await readSeq(db.query, entry.pageId);
            if (!(await stillTheSame(entry, stored))) return;
            if (stored !== null && stored.seq > entry.applied) void catchUp(entry);
            // Everything stored is in this memory: so is every draft written from it.
            else if (stored !== null) entry.heldVersion = stored.writtenVersion;
            void takeForeignDraft(entry);
          });
      }, pollMs);
      poller.unref();
      // This process's own editor actions say when they changed a page's text (textChangedHere):
      // taken in at once — theirs for certain, not a write of another instance's in flight.
      takeNow().take = (pageId) => {
        const entry = open.get(pageId);
        if (entry && !entry.closed) void takeForeignDraft(entry, true);
      };
      takeNow().repair = async (pageId, createdAt) => {
        const entry = open.get(pageId);
        if (entry && !entry.closed && entry.createdAt === createdAt)
          await enqueue(entry, () => repairDamaged(entry));
        else await dropDamaged(db, pageId, createdAt);
      };
      takeNow().flush = async (pageId) => {
        const entry = open.get(pageId);
        if (!entry || entry.closed) return;
        // After the updates already taken: the draft then holds every one of them.
        await enqueue(entry, async () => {
          if (entry.draftTimer) await saveDraftNow(entry);
          else await entry.writing;
        }).catch(() => undefined);
      };
    },

    /** Open documents and connections here (for tests and the log). */
    stats() {
      let connections = 0;
      for (const entry of open.values()) connections += entry.members.size;
      return { documents: open.size, connections };
    },

    /** Closes every connection (1012: the server restarts), writes pending drafts, stops following. */
    async stop(): Promise<void> {
      stopped = true;
      if (poller) clearInterval(poller);
      takeNow().take = null;
      takeNow().flush = null;
      takeNow().repair = null;
      await subscription?.unlisten().catch(() => undefined);
      subscription = null;
      await awarenessSubscription?.unlisten().catch(() => undefined);
      awarenessSubscription = null;
      // Sent out before the database is let go: the other instances drop these cursors at once.
      const leaving: Promise<void>[] = [];
      for (const entry of open.values()) {
        const ids = [...entry.members].flatMap((member) => [...member.clientIds]);
        if (db.engine === 'postgres' && ids.length > 0) {
          awarenessProtocol.removeAwarenessStates(entry.awareness, ids, null);
          leaving.push(
            publishAwareness(
              db,
              awarenessPayload(
                entry.pageId,
                instance,
                awarenessProtocol.encodeAwarenessUpdate(entry.awareness, ids),
              ),
            ).catch(() => undefined),
          );
        }
      }
      await Promise.race([Promise.all([...publishing, ...leaving]), Bun.sleep(1_000)]);
      await Promise.all(checking);
      for (const entry of [...open.values()]) {
        await entry.queue;
        if (entry.draftTimer) await saveDraftNow(entry);
        await entry.writing;
        // Its rows deleted by hand as the server stops: what only this memory holds is written
        // as the draft before it goes (the hostile pass: an instance restarted at the delete
        // took a letter with it).
        try {
          await stillTheSame(entry, await readSeq(db.query, entry.pageId));
        } catch (error) {
          if (!isOutage(error)) throw error;
        }
        if (!entry.closed) discard(entry, CLOSE.restart, 'the server is restarting');
      }
    },
  };
}

export type CoeditRegistry = ReturnType<typeof createCoeditRegistry>;

/** How this process's registry (the one following, if any) takes a change made here now. */
const takeNow = () =>
  processSingleton<{
    take: ((pageId: number) => void) | null;
    flush: ((pageId: number) => Promise<void>) | null;
    repair: ((pageId: number, createdAt: string) => Promise<void>) | null;
  }>('coedit-take-now', () => ({ take: null, flush: null, repair: null }));

/**
 * A save of this process found the page's stored document missing updates (DamagedDocument):
 * made again now — from this process's memory of it, if it has the page open — rather than when
 * its next draft write finds it.
 */
export async function documentDamagedHere(pageId: number, createdAt: string): Promise<void> {
  await takeNow().repair?.(pageId, createdAt);
}

/**
 * Before an editor action of this process replaces the page's draft (Discard draft, Restore as
 * draft): its open document's typing is written as the draft first, so the draft replaced holds
 * all of it (and the history keeps it), and the document can take the replacement as it is.
 */
export async function draftsWrittenHere(pageId: number): Promise<void> {
  await takeNow().flush?.(pageId);
}

/**
 * An editor action of this process changed the page's draft text from outside its shared
 * document (Discard draft, Restore as draft, a save from a form that is not live): its open
 * document takes the change in now, and its live editors are told, rather than at the next two
 * polls (3–6 s, during which the tab that made the change reloaded onto the document's old text).
 * Other instances take it at their polls as before.
 */
export function textChangedHere(pageId: number): void {
  takeNow().take?.(pageId);
}

/**
 * The field an update would take over its limit (FIELD_MAX), if any; a field already over
 * (a limit lowered since) may still shrink. An update adds at most as many characters as it has
 * bytes: only one that could take a field over is tried, on a copy.
 */
function overLimit(doc: Y.Doc, update: Uint8Array): FieldName | null {
  const near = FIELD_TEXTS.filter(
    (field) => doc.getText(field).length + update.byteLength > FIELD_MAX[field],
  );
  if (near.length === 0) return null;
  const probe = new Y.Doc();
  try {
    Y.applyUpdate(probe, Y.encodeStateAsUpdate(doc));
    Y.applyUpdate(probe, update);
    for (const field of near) {
      const after = characterCount(probe.getText(field).toString());
      if (after > FIELD_MAX[field] && after > characterCount(doc.getText(field).toString()))
        return field;
    }
    return null;
  } finally {
    probe.destroy();
  }
}

/**
 * The update that makes each field of `doc` named in `to` say that, made on a copy: the
 * document itself takes it only once it is stored.
 */
function replacementUpdate(doc: Y.Doc, to: Partial<DocumentFields>): Uint8Array {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
  const before = Y.encodeStateVector(copy);
  copy.transact(() => {
    for (const field of FIELD_TEXTS) {
      const wanted = to[field];
      if (wanted === undefined) continue;
      const text = copy.getText(field);
      replaceText(text, text.toString(), wanted);
    }
  });
  const update = Y.encodeStateAsUpdate(copy, before);
  copy.destroy();
  return update;
}
