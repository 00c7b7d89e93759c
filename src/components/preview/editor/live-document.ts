// Owns the browser's end of a page's shared document (decision records 0050 and 0051): a local
// Y.Doc with the Y.Texts `title`, `summary` and `body`, kept in step with the server over the WebSocket at
// `/preview/<slug>?live` with y-protocols' sync (0) and awareness (1) messages, and Folio's
// acknowledgement (4: how many of this connection's updates are stored). It counts what is
// sent against what is acknowledged, so the editor knows when every keystroke is durable, and
// reconnects with backoff: the local document keeps taking edits meanwhile, and the sync step 2
// answering the server's step 1 on the next connection carries whatever the server lacks.
//
// The document is also kept in this browser (IndexedDB, y-indexeddb; decision record 0051,
// "IndexedDB"), under the identity the server names first on every connection (Folio's message
// 5): a tab closed, crashed or reloaded while offline leaves its typing there, and the next tab
// of that person on that document merges it in (a CRDT merge: once, with the others' edits) and
// sends what the server lacks. A connection naming another identity than the one this tab has
// been editing is another document of the page: no update crosses between the two. The tab
// then says 'remade' with the text the server had acknowledged from it (a shadow document kept
// beside this one: everything the server sent, and this tab's updates once acknowledged), and
// use-live-document.ts opens the new document and merges in only what was typed beyond that.
//
// No React here: use-live-document.ts gives it to the editor.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as idb from 'lib0/indexeddb';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { parseIdentity } from '../../../lib/coedit/identity';
import { type DraftNotice, parseNotice } from '../../../lib/coedit/notice';
import {
  BODY_MAX,
  characterCount,
  SUMMARY_MAX,
  TITLE_MAX,
} from '../../../lib/content/field-limits';
import { smallestEdit } from '../../../lib/content/text-edits';
import {
  FORBIDDEN_CLOSE,
  GONE_CLOSE,
  type LivePhase,
  type LiveUser,
  liveSocketUrl,
  REPLACED,
  RESTART_CLOSE,
  retryDelayMs,
  SIGNED_OUT_CLOSE,
  stoppedReasonOf,
  TRY_AGAIN_CLOSE,
} from './live-presence';
import {
  copyName,
  deleteCopy,
  dropStaleCopies,
  forgottenLately,
  noteCopyChanged,
  onForget,
  onSignedIn,
  signedOutThroughFolio,
} from './local-copy';

// The server's numbers (src/lib/coedit/documents.ts, a server-only module; live-presence.test.ts
// holds them equal) and the names of the fields' Y.Texts (storage.ts BODY_TEXT, TITLE_TEXT,
// SUMMARY_TEXT).
export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
export const MESSAGE_QUERY_AWARENESS = 3;
export const MESSAGE_ACK = 4;
export const MESSAGE_IDENTITY = 5;
export const MESSAGE_PERSON = 6;
export const MESSAGE_NOTICE = 7;
export const BODY_TEXT = 'body';
export const TITLE_TEXT = 'title';
export const SUMMARY_TEXT = 'summary';

/** The fields bound to an input (the body is CodeMirror's, body-codemirror.ts). */
export type LiveField = 'title' | 'summary';

import { FIELD_EDIT } from './live-presence';

/** Close codes after which trying again would only be refused again (documents.ts CLOSE). */
const FINAL_CLOSES = new Set([1003, 1007, 1008, 1009, FORBIDDEN_CLOSE, GONE_CLOSE]);
/**
 * Paused, a connection is tried this often, besides when the tab is shown or focused (after
 * signing in in another tab) and on Save: each try the server refuses costs one request.
 */
const PAUSED_RETRY_MS = 30_000;
/** A notice like one dismissed is not shown again for this long (quieted). */
const NOTICE_QUIET_MS = 10 * 60_000;
/** Without a first sync this long after opening, the editor goes on without the document. */
const FIRST_SYNC_MS = 10_000;
/** Closes before the first sync that are tried again: "connect again", and no answer (1006). */
const FIRST_SYNC_RETRY_CLOSES = new Set([RESTART_CLOSE, TRY_AGAIN_CLOSE, 1006]);
/** Tries after such a close before the first sync, before the editor goes on without it. */
const FIRST_SYNC_TRIES = 3;
/** The first sync waits this long at most for the browser's copy to be read. */
const COPY_WAIT_MS = 3_000;
/** How often the list of copies is told this one changed (its age counts from then). */
const COPY_NOTE_MS = 60_000;
/** Marks what the server sent, so it is not sent back. */
const REMOTE = Symbol('remote');

/** The three fields' text, as a document holds them. */
export type LiveTexts = { body: string; title: string; summary: string };

export type LiveSnapshot = {
  phase: LivePhase;
  /** Local changes not yet acknowledged as stored. */
  pending: number;
  /** When everything was last acknowledged (ISO), null before. */
  ackedAt: string | null;
  /** Why live editing stopped for good, in words to show, with phase 'refused' (null: unsaid). */
  reason: string | null;
  /** The last change made to the page from outside the document (notice.ts), until dismissed. */
  notice: DraftNotice | null;
  /**
   * With phase 'remade': the fields as the server had them from this tab (everything it sent and
   * everything of this tab's it acknowledged). What the tab shows beyond this is its own unsent
   * typing, the one part to merge into the new document.
   */
  acknowledged: LiveTexts | null;
  /**
   * At the first sync, this browser's copy (IndexedDB) held typing the server lacked, now in the
   * document: a form backup's typing may be partly in it (the copy written a few keys behind),
   * so it is offered, not put back by itself (use-draft-recovery.ts).
   */
  copyBrought: boolean;
};

export class LiveDocument {
  readonly doc = new Y.Doc();
  readonly text: Y.Text = this.doc.getText(BODY_TEXT);
  readonly title: Y.Text = this.doc.getText(TITLE_TEXT);
  readonly summary: Y.Text = this.doc.getText(SUMMARY_TEXT);
  readonly awareness = new awarenessProtocol.Awareness(this.doc);
  readonly undoManager = new Y.UndoManager(this.text);
  private socket: WebSocket | null = null;
  private snapshot: LiveSnapshot = {
    phase: 'connecting',
    pending: 0,
    ackedAt: null,
    reason: null,
    notice: null,
    acknowledged: null,
    copyBrought: false,
  };
  /**
   * The document as the server has it, as far as this tab knows: what the server sent, and this
   * tab's own updates once acknowledged. Read only when the server names another document.
   */
  private readonly stored = new Y.Doc();
  /** What each update sent on this connection brings to `stored` once acknowledged, in order. */
  private unacknowledged: Uint8Array[] = [];
  private listeners = new Set<() => void>();
  /** Updates (and sync step 2s) sent on this connection; the server acknowledges each. */
  private sent = 0;
  private acked = 0;
  /** Local changes made while no connection could take them (sent in the next sync step 2). */
  private unsent = false;
  /** This connection has answered the server's sync step 1: updates may follow it. */
  private answered = false;
  /**
   * Changes kept back because the text is longer than a page may be (the server would refuse
   * them and close the connection), and the state the server has from this tab at least: once
   * the text is short enough again, everything since goes in one update.
   */
  private held = false;
  private sentVector: Uint8Array = new Uint8Array([0]);
  private everSynced = false;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private firstSyncTimer: ReturnType<typeof setTimeout> | null = null;
  private destroyed = false;
  private waiting = new Set<() => void>();
  /** The document's identity as the server named it on the first connection. */
  private identity: string | null = null;
  /** This browser's copy of the document (IndexedDB), once open. */
  private copy: IndexeddbPersistence | null = null;
  /** Resolves once the copy is read into the document (or could not be). */
  private copyRead: Promise<void> | null = null;
  private copyNoted = 0;
  private stopForget: () => void = () => undefined;
  private stopSignedIn: () => void = () => undefined;
  /** Asked to try while a try was on its way (resume): tried again once that one is refused. */
  private tryAgain = false;
  /** Notices dismissed (their change and person), and when (quieted). */
  private dismissed = new Map<string, number>();

  constructor(
    private readonly slug: string,
    private readonly user: LiveUser,
    /**
     * Told another document, the tab says 'remade' for the editor to open that one; false (it
     * happened too often in this page view), it stops live editing, its text kept, as refused.
     */
    private readonly mayReopen = true,
  ) {
    this.awareness.setLocalStateField('user', user);
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (this.copy && origin !== this.copy && Date.now() - this.copyNoted > COPY_NOTE_MS) {
        this.copyNoted = Date.now();
        noteCopyChanged(this.copy.name);
      }
      if (origin === REMOTE) return;
      if (this.tooLong()) this.held = true;
      else if (this.isOpen() && this.answered) {
        const send = this.held ? sinceWithoutDeleted(this.doc, this.sentVector) : update;
        const wasHeld = this.held;
        this.held = false;
        this.sendSync((encoder) => syncProtocol.writeUpdate(encoder, send));
        this.sent += 1;
        // Held back, `send` is what the server lacks of everything here: once it is stored, so is
        // everything here (later updates are acknowledged after it).
        this.unacknowledged.push(wasHeld ? Y.encodeStateAsUpdate(this.doc) : update);
        this.sentVector = Y.encodeStateVector(this.doc);
      } else this.unsent = true;
      this.changed();
    });
    this.awareness.on(
      'update',
      ({ added, updated, removed }: Record<string, number[]>, origin: unknown) => {
        // Only this tab's own state: the server relays the others' itself.
        if (origin !== 'local' || !this.isOpen()) return;
        const ids = [...(added ?? []), ...(updated ?? []), ...(removed ?? [])];
        this.sendAwareness(ids);
      },
    );
    window.addEventListener('focus', this.shown);
    document.addEventListener('visibilitychange', this.shown);
    this.stopSignedIn = onSignedIn(() => this.resume());
    this.connect();
  }

  private readonly shown = () => {
    if (document.visibilityState === 'visible') this.resume();
  };

  /** What the editor shows (the same object until something changes). */
  get state(): LiveSnapshot {
    return this.snapshot;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves true once every local change is acknowledged as stored, false after `timeoutMs`
   * (a save then says it could not confirm the text, and keeps it).
   */
  whenAcknowledged(timeoutMs: number): Promise<boolean> {
    if (this.pendingCount() === 0 && this.snapshot.phase === 'synced') return Promise.resolve(true);
    // A save while paused asks for the connection back: signed in again meanwhile, the typing
    // kept here goes up and the save goes on. Asked by the person, it is tried even after a
    // sign-out through Folio (one refusal for the browser to log, at most).
    this.resume(true);
    return new Promise((resolve) => {
      const check = () => {
        // Made again, or gone: this document will never store it (use-live-document.ts goes on
        // waiting with the next).
        if (this.snapshot.phase === 'remade' || this.destroyed) {
          clearTimeout(timer);
          this.waiting.delete(check);
          resolve(false);
          return;
        }
        if (this.pendingCount() !== 0 || this.snapshot.phase !== 'synced') return;
        clearTimeout(timer);
        this.waiting.delete(check);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiting.delete(check);
        resolve(false);
      }, timeoutMs);
      this.waiting.add(check);
    });
  }

  /**
   * Makes the field say `value` with the smallest edit (what the input changed), in one
   * transaction of this tab: the Y.Text moves as typed, so others' edits elsewhere in it stay.
   * The body's UndoManager does not track it: Undo in an input stays the browser's own.
   */
  editField(field: LiveField, value: string): void {
    const text = this[field];
    const from = text.toString();
    if (from === value) return;
    const edit = smallestEdit(from, value);
    this.doc.transact(() => {
      if (edit.remove > 0) text.delete(edit.at, edit.remove);
      if (edit.insert) text.insert(edit.at, edit.insert);
    }, FIELD_EDIT);
  }

  /**
   * Paused (signed out): tries a connection now rather than at the next half minute — the tab
   * shown or focused again (the person may have signed in in another), or a save.
   */
  resume(asked = false): void {
    if (this.destroyed || this.snapshot.phase !== 'paused') return;
    // A try already on its way may carry the cookie from before the sign-in that brought the
    // person back: if it is refused, another follows at once (not half a minute later).
    if (this.socket) {
      this.tryAgain = true;
      return;
    }
    // Signed out through Folio: no cookie to send, a try is a 401 the browser logs. A signed-in
    // page loading in another tab says when to try (onSignedIn), or the person, by saving.
    if (signedOutThroughFolio() && !asked) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  destroy(): void {
    this.destroyed = true;
    window.removeEventListener('focus', this.shown);
    document.removeEventListener('visibilitychange', this.shown);
    this.stopForget();
    this.stopSignedIn();
    // Everything in the copy is stored: nothing is left for a later tab, so it goes (kept, it
    // would hold this draft text in the browser for nothing). Otherwise the doc's destroy
    // below closes it, and the next visit merges it.
    if (this.copy && this.everSynced && this.pendingCount() === 0) this.dropCopy();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.firstSyncTimer) clearTimeout(this.firstSyncTimer);
    // Gone at once from the others' lists, rather than after the awareness timeout.
    if (this.isOpen())
      awarenessProtocol.removeAwarenessStates(this.awareness, [this.doc.clientID], 'local');
    this.socket?.close(1000, 'editor closed');
    this.socket = null;
    this.undoManager.destroy();
    this.awareness.destroy();
    this.doc.destroy();
    this.stored.destroy();
    for (const check of [...this.waiting]) check();
    this.listeners.clear();
  }

  /**
   * A field longer than a page's may be: the server would refuse the update and close the
   * connection (1008), so this tab's changes are kept back until it is short enough again.
   */
  private tooLong(): boolean {
    return (
      this.text.length > BODY_MAX ||
      characterCount(this.title.toString()) > TITLE_MAX ||
      characterCount(this.summary.toString()) > SUMMARY_MAX
    );
  }

  private isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  private pendingCount(): number {
    return this.sent - this.acked + (this.unsent || this.held ? 1 : 0);
  }

  private set(next: Partial<LiveSnapshot>) {
    this.snapshot = { ...this.snapshot, ...next };
    for (const listener of this.listeners) listener();
  }

  /** The counts moved: the snapshot follows, and waiting saves hear of it. */
  private changed() {
    const pending = this.pendingCount();
    const ackedAt =
      pending === 0 && this.snapshot.phase === 'synced'
        ? new Date().toISOString()
        : this.snapshot.ackedAt;
    if (pending !== this.snapshot.pending || ackedAt !== this.snapshot.ackedAt)
      this.set({ pending, ackedAt });
    for (const check of [...this.waiting]) check();
  }

  private connect() {
    if (this.destroyed) return;
    let socket: WebSocket;
    try {
      socket = new WebSocket(liveSocketUrl(window.location, this.slug));
    } catch {
      this.set({ phase: 'unavailable' });
      return;
    }
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    this.sent = 0;
    this.acked = 0;
    this.unacknowledged = [];
    this.answered = false;
    if (!this.everSynced)
      this.firstSyncTimer = setTimeout(() => {
        // Opened (or not) but never synced: the editor goes on as it does without JavaScript's
        // socket, and this connection is let go.
        if (this.everSynced || this.destroyed) return;
        this.set({ phase: 'unavailable' });
        socket.close(1000, 'no first sync');
      }, FIRST_SYNC_MS);
    socket.onopen = () => {
      this.sendSync((encoder) => syncProtocol.writeSyncStep1(encoder, this.doc));
      if (this.awareness.getLocalState() !== null) this.sendAwareness([this.doc.clientID]);
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket || !(event.data instanceof ArrayBuffer)) return;
      this.receive(new Uint8Array(event.data));
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      // The others' cursors are no longer known: the next connection brings them again.
      const others = [...this.awareness.getStates().keys()].filter(
        (id) => id !== this.doc.clientID,
      );
      awarenessProtocol.removeAwarenessStates(this.awareness, others, REMOTE);
      // Sent but not acknowledged: not known to be stored, so sent again (sync step 2 sends
      // everything the server lacks; Yjs updates are idempotent).
      if (this.sent > this.acked) this.unsent = true;
      this.sent = 0;
      this.acked = 0;
      this.unacknowledged = [];
      if (this.destroyed || this.snapshot.phase === 'unavailable') return;
      if (!this.everSynced) {
        // Told to come back (1012: the instance is stopping for a deploy; 1013: the document
        // was let go meanwhile), or not answered at all (1006: an instance down for a moment as
        // it restarts, when the page was loaded just before): tried again a few times before
        // giving up on it.
        if (FIRST_SYNC_RETRY_CLOSES.has(event.code) && this.attempts < FIRST_SYNC_TRIES) {
          if (this.firstSyncTimer) clearTimeout(this.firstSyncTimer);
          this.firstSyncTimer = null;
          this.attempts += 1;
          this.retryTimer = setTimeout(() => this.connect(), retryDelayMs(this.attempts));
          return;
        }
        // Never synced (the dev server, a proxy without WebSockets, a refusal before the
        // upgrade or before the first sync): the editor works as it does without the document.
        this.set({ phase: 'unavailable' });
        return;
      }
      // Renamed: the same document at another address; the tab stops and points there.
      if (event.code === GONE_CLOSE && event.reason) {
        this.set({ phase: 'moved', reason: event.reason });
        this.changed();
        return;
      }
      if (FINAL_CLOSES.has(event.code)) {
        this.set({ phase: 'refused', reason: stoppedReasonOf(event.code, event.reason) });
        this.changed();
        return;
      }
      // Signed out (or a try while so, which the server refuses before the upgrade: 1006):
      // the typing stays in this document, as offline, until a connection is let in again.
      if (event.code === SIGNED_OUT_CLOSE || this.snapshot.phase === 'paused') {
        this.set({ phase: 'paused', reason: event.reason || this.snapshot.reason });
        this.changed();
        const again = this.tryAgain;
        this.tryAgain = false;
        this.retryTimer = setTimeout(
          () => {
            this.retryTimer = null;
            this.resume();
          },
          again ? 0 : PAUSED_RETRY_MS,
        );
        return;
      }
      this.set({ phase: this.everSynced ? 'offline' : 'connecting' });
      this.changed();
      this.attempts += 1;
      this.retryTimer = setTimeout(() => this.connect(), retryDelayMs(this.attempts));
    };
  }

  private receive(message: Uint8Array) {
    const decoder = decoding.createDecoder(message);
    const kind = decoding.readVarUint(decoder);
    if (kind === MESSAGE_SYNC) {
      const step = decoding.readVarUint(decoder);
      const payload = decoding.readVarUint8Array(decoder);
      if (step === syncProtocol.messageYjsSyncStep1) {
        this.answered = true;
        this.sentVector = payload;
        if (this.tooLong()) {
          // Too long to be taken: kept back until it is short enough (the next local change).
          this.held = this.held || this.unsent;
          this.unsent = false;
          this.changed();
          return;
        }
        // What the server lacks: everything typed while offline, in one message.
        this.sendSync((encoder) => {
          encoding.writeVarUint(encoder, syncProtocol.messageYjsSyncStep2);
          encoding.writeVarUint8Array(encoder, sinceWithoutDeleted(this.doc, payload));
        });
        this.sent += 1;
        // The server's state vector says what it lacked, not what it has: once this step 2 is
        // stored, it has everything here, the browser's copy's typing included.
        this.unacknowledged.push(Y.encodeStateAsUpdate(this.doc));
        this.unsent = false;
        this.sentVector = Y.encodeStateVector(this.doc);
        this.changed();
        return;
      }
      Y.applyUpdate(this.doc, payload, REMOTE);
      Y.applyUpdate(this.stored, payload);
      if (step === syncProtocol.messageYjsSyncStep2 && this.snapshot.phase !== 'synced') {
        // The first time, the browser's copy is read in first: the editor binds to the text
        // with it, and Save waits for what it brought to be stored.
        const socket = this.socket;
        const synced = () => {
          if (this.socket !== socket || this.destroyed || this.snapshot.phase === 'synced') return;
          const first = !this.everSynced;
          this.everSynced = true;
          this.attempts = 0;
          if (this.firstSyncTimer) clearTimeout(this.firstSyncTimer);
          // Nothing typed here reaches the document before the editor binds, after this: what
          // the document has beyond the server's is the copy's.
          const acknowledged = this.acknowledgedTexts();
          const copyBrought =
            first &&
            (acknowledged.body !== this.text.toString() ||
              acknowledged.title !== this.title.toString() ||
              acknowledged.summary !== this.summary.toString());
          this.set(first ? { phase: 'synced', copyBrought } : { phase: 'synced' });
          this.changed();
        };
        if (this.everSynced || !this.copyRead) synced();
        else void this.copyRead.then(synced, synced);
      }
      return;
    }
    if (kind === MESSAGE_AWARENESS) {
      awarenessProtocol.applyAwarenessUpdate(
        this.awareness,
        decoding.readVarUint8Array(decoder),
        REMOTE,
      );
      return;
    }
    if (kind === MESSAGE_ACK) {
      const acked = Math.max(this.acked, decoding.readVarUint(decoder));
      for (const update of this.unacknowledged.splice(0, acked - this.acked))
        Y.applyUpdate(this.stored, update);
      this.acked = acked;
      this.changed();
      return;
    }
    if (kind === MESSAGE_IDENTITY) this.identify(decoding.readVarString(decoder));
    if (kind === MESSAGE_PERSON) this.checkPerson(decoding.readVarString(decoder));
    if (kind === MESSAGE_NOTICE) {
      const notice = parseNotice(decoding.readVarString(decoder));
      if (notice && !this.quieted(notice)) this.set({ notice });
    }
  }

  /** The notice was read and dismissed. */
  dismissNotice(): void {
    const notice = this.snapshot.notice;
    if (!notice) return;
    this.dismissed.set(`${notice.change} ${notice.byKey ?? notice.by}`, Date.now());
    this.set({ notice: null });
  }

  /**
   * A notice like one dismissed in the last ten minutes (the same change by the same person) is
   * not shown again: a browser without WebSockets autosaves every few seconds of typing, and
   * each save is such a change.
   */
  private quieted(notice: DraftNotice): boolean {
    const at = this.dismissed.get(`${notice.change} ${notice.byKey ?? notice.by}`);
    return at !== undefined && Date.now() - at < NOTICE_QUIET_MS;
  }

  /**
   * The server names the session's person before the sync: another than this tab's (someone
   * signed in in this browser meanwhile) and this tab stops before its step 2 — what was typed
   * here goes nowhere as theirs. Its copy in this browser stays under its own person.
   */
  private checkPerson(key: string) {
    if (key === this.user.key) return;
    this.stopLive('someoneElse', null, 'another person');
  }

  /**
   * Stops live editing for good from this side: the socket let go and closed, no retry, what
   * was sent and not acknowledged counted as unsent (the text stays in the document), and the
   * phase that says why.
   */
  private stopLive(
    phase: 'someoneElse' | 'refused' | 'remade',
    reason: string | null,
    closeReason: string,
  ) {
    const socket = this.socket;
    this.socket = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    socket?.close(1000, closeReason);
    if (this.sent > this.acked) this.unsent = true;
    this.set({ phase, reason });
    this.changed();
  }

  /**
   * The server names the document (first, on every connection). The first name opens this
   * browser's copy of it; another name later is another document of the page (its row made
   * again: `db copy`, rows deleted, a fresh start past the size bound): this tab's document is
   * not merged into it, nor it into this one (every line would be there twice). The tab stops,
   * saying 'remade' with what the server had acknowledged from it, for the editor to open the
   * new document and merge in only the typing beyond that (use-live-document.ts).
   */
  private identify(value: string) {
    const parsed = parseIdentity(value);
    if (!parsed) return;
    if (this.identity === null) {
      this.identity = parsed.identity;
      this.copyRead = this.openCopy(parsed.identity);
      return;
    }
    if (parsed.identity === this.identity) return;
    if (!this.mayReopen) {
      this.stopLive('refused', REPLACED, 'another document');
      return;
    }
    this.set({ acknowledged: this.acknowledgedTexts() });
    this.stopLive('remade', null, 'another document');
  }

  /**
   * The text the server has stored from this tab and sent it (the shadow document): what the
   * tab shows beyond it is its own unsent typing. Kept with the form's backup as the text that
   * typing was typed on, so a reload puts back only that (use-draft-recovery.ts).
   */
  acknowledgedTexts(): LiveTexts {
    return {
      body: this.stored.getText(BODY_TEXT).toString(),
      title: this.stored.getText(TITLE_TEXT).toString(),
      summary: this.stored.getText(SUMMARY_TEXT).toString(),
    };
  }

  /**
   * Opens this person's copy of the document in IndexedDB and reads it into the document: what
   * it holds that the server lacks goes up as this tab's own change (pending until
   * acknowledged). Without IndexedDB (a private window may refuse it) nothing changes.
   */
  private async openCopy(identity: string): Promise<void> {
    if (typeof indexedDB === 'undefined' || this.destroyed) return;
    const name = copyName(identity, this.user.key);
    try {
      // Opened once first so a refusal is caught here: y-indexeddb's own would go unhandled.
      const probe = await idb.openDB(name, (db) =>
        idb.createStores(db, [['updates', { autoIncrement: true }], ['custom']]),
      );
      probe.close();
    } catch {
      return;
    }
    if (this.destroyed || this.identity !== identity) return;
    const copy = new IndexeddbPersistence(name, this.doc);
    this.copy = copy;
    this.stopForget();
    this.stopForget = onForget(() => this.dropCopy());
    noteCopyChanged(name);
    this.copyNoted = Date.now();
    copy._db
      .then((db) => {
        // Deleted under this tab (another tab's copy, all stored, closing; the age cap; a
        // sign-out): closed and let go at once — written to once closed, every keystroke would
        // throw — then written again whole, unless the person signed out.
        db.onversionchange = () => {
          db.close();
          void copy.destroy();
          if (this.copy !== copy) return;
          this.copy = null;
          if (!this.destroyed && !forgottenLately() && this.identity === identity)
            this.copyRead = this.openCopy(identity);
        };
      })
      .catch(() => undefined);
    void copy.whenSynced.then(() => dropStaleCopies(identity)).catch(() => undefined);
    await Promise.race([
      copy.whenSynced,
      new Promise<void>((resolve) => setTimeout(resolve, COPY_WAIT_MS)),
    ]);
  }

  /** Lets go of the copy and deletes it (all of it stored, or the person signed out). */
  private dropCopy() {
    const copy = this.copy;
    if (!copy) return;
    this.copy = null;
    void copy.destroy().then(() => deleteCopy(copy.name));
  }

  private sendSync(write: (encoder: encoding.Encoder) => void) {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_SYNC);
    write(encoder);
    this.socket?.send(encoding.toUint8Array(encoder));
  }

  private sendAwareness(ids: number[]) {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
    encoding.writeVarUint8Array(
      encoder,
      awarenessProtocol.encodeAwarenessUpdate(this.awareness, ids),
    );
    this.socket?.send(encoding.toUint8Array(encoder));
  }
}

/**
 * What `doc` has beyond `vector`, with the text of what was deleted meanwhile left out. The
 * UndoManager keeps deleted text in the document (to bring it back on Undo), and Yjs would send
 * it too: a megabyte pasted and replaced while held back made a 1.2 MB update the server refuses
 * (1009). Applied to a copy in one transaction, what is deleted there is collected as it lands.
 */
function sinceWithoutDeleted(doc: Y.Doc, vector: Uint8Array): Uint8Array {
  const copy = new Y.Doc({ gc: true });
  try {
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
    return Y.encodeStateAsUpdate(copy, vector);
  } finally {
    copy.destroy();
  }
}
