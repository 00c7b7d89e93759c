// Owns the co-editing rules that need no socket and no React (decision record 0051), so they
// are tested alone (live-presence.test.ts): who a person is to the others (name, colour), who
// is here (one entry a person, however many tabs), where the socket is, how long to wait before
// trying again, and where a save takes the body from.
import { mergeTexts } from '../../../lib/content/merge';
import { previewPath } from '../../../lib/http/routes';

/**
 * Marks this tab's edits to the title and summary (the body's are yCollab's own origin). Here,
 * not in live-document.ts: use-live-fields.ts reads it on the server's render too, and importing
 * live-document.ts there put a second Yjs in the server process beside the co-editing server's
 * ("Yjs was already imported" at every start).
 */
export const FIELD_EDIT = Symbol('field edit');

/** Where the page's shared document stands in this tab. */
export type LivePhase =
  /** The first connection is on its way: the editor is the plain one meanwhile. */
  | 'connecting'
  /** Bound and in step with the server. */
  | 'synced'
  /** Bound, the connection lost: typing goes on in the local document, sent on reconnect. */
  | 'offline'
  /**
   * Bound, then closed because the person is signed out (or may no longer edit the page):
   * typing goes on in the local document, as offline, and is sent when a connection is let in
   * again — tried when the tab is shown or focused, on Save, and every half minute.
   */
  | 'paused'
  /** Bound, then refused for good (a malformed or oversized change, the page deleted). */
  | 'refused'
  /**
   * Bound, then let in again under another person's session (signed in in this browser
   * meanwhile): nothing more is sent or saved from this tab — what was typed here is the first
   * person's (kept in this browser for them), never the second's.
   */
  | 'someoneElse'
  /**
   * Bound, then told (a try while paused) that the page was renamed: the document is the same,
   * at another address. Nothing more is sent or saved from this tab (its form's slug is the old
   * one, and a form save beside the copy kept in this browser put the typing in twice: hostile
   * pass); the typing goes with the person to the new address, where the copy is merged once.
   * `reason` is the new slug.
   */
  | 'moved'
  /**
   * Bound, then told the page's document was made again (another identity): for a moment, until
   * the editor opens the new one and merges into it the typing the old one had not stored.
   */
  | 'remade'
  /** Never synced (no WebSocket here, refused before it opened): the editor as without it. */
  | 'unavailable';

/** What this tab tells the others about its person (awareness field `user`). */
export type LiveUser = {
  /** One a person, the same in every tab: their e-mail, lower case. */
  key: string;
  name: string;
  /** The caret's and the name label's colour (white text on it is readable). */
  color: string;
  /** Their selection's background, light enough for the text over it to stay readable. */
  colorLight: string;
};

/**
 * Colours with at least 4.5:1 against white (the name label's text, on the colour itself, so the
 * label reads the same on both themes) and 3:1 against the light theme's page (the caret line;
 * on the dark theme preview.css draws the caret wider with a light edge), far enough apart to
 * tell two people apart.
 */
export const PRESENCE_COLOURS = [
  '#b3261e',
  '#1b6e3a',
  '#0b57d0',
  '#8e24aa',
  '#9a4a00',
  '#00695c',
  '#c2185b',
  '#4a3fb5',
] as const;

/** A person's colour: the same in every tab and on every visit (a hash of their key). */
export function colourOf(key: string): string {
  let hash = 2166136261;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return PRESENCE_COLOURS[(hash >>> 0) % PRESENCE_COLOURS.length] as string;
}

export function liveUserOf(person: { email: string; name: string | null }): LiveUser {
  const key = person.email.trim().toLowerCase();
  const color = colourOf(key);
  // 20% opacity over the page: the selected text stays readable on both themes.
  return { key, name: person.name?.trim() || person.email, color, colorLight: `${color}33` };
}

export type Present = { key: string; name: string; color: string };

/**
 * The other people on the page now, from the awareness states: one entry a person (two tabs of
 * theirs are one), never this person (another tab of their own is not someone else), in a
 * steady order (by name) so the list does not jump as cursors move. A state without a usable
 * `user` (a client of another make) is left out.
 */
export function othersHere(states: ReadonlyMap<number, unknown>, selfKey: string): Present[] {
  const people = new Map<string, Present>();
  for (const state of states.values()) {
    const user = (state as { user?: Partial<LiveUser> } | null)?.user;
    if (!user || typeof user.key !== 'string' || typeof user.name !== 'string') continue;
    if (user.key === selfKey || people.has(user.key)) continue;
    const color =
      typeof user.color === 'string' && /^#[0-9a-f]{6}$/i.test(user.color)
        ? user.color
        : colourOf(user.key);
    people.set(user.key, { key: user.key, name: user.name.slice(0, 200), color });
  }
  return [...people.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key),
  );
}

/** The page's live socket, on this page's own host (ws: beside http:, wss: beside https:). */
export function liveSocketUrl(location: { protocol: string; host: string }, slug: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${previewPath(slug)}?live`;
}

/** Waits between reconnects: 1 s, 2 s, 4 s… up to 30 s, with a little jitter. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * Where a save, an autosave or a publish takes the body from. Once the editor is bound to the
 * document, the document is the body's one source: the form says `live=1` and the server takes
 * the document's stored text, after this tab's updates are all acknowledged (a body sent from
 * the form would be merged against the document's own draft writes, doubling lines). Before the
 * binding, without one, or refused for good, the form's body is sent, as without co-editing.
 * `bound`: the editor took the document's text at least once.
 */
export function bodySourceOf(phase: LivePhase, bound: boolean): 'document' | 'form' {
  if (!bound) return 'form';
  return phase === 'synced' ||
    phase === 'offline' ||
    phase === 'paused' ||
    phase === 'someoneElse' ||
    phase === 'moved'
    ? 'document'
    : 'form';
}

/** The person is signed out or may no longer edit (documents.ts CLOSE.signedOut): paused. */
export const SIGNED_OUT_CLOSE = 4401;
/** Said to a try (documents.ts CLOSE.forbidden, CLOSE.gone): stopped, in words of their own. */
export const FORBIDDEN_CLOSE = 4403;
export const GONE_CLOSE = 4404;
/** Connect again (documents.ts CLOSE.restart: the instance stopping; CLOSE.tryAgain). */
export const RESTART_CLOSE = 1012;
export const TRY_AGAIN_CLOSE = 1013;

/** Why live editing stopped for good (phase 'refused', the status line's `reason`), by close. */
export function stoppedReasonOf(code: number, reason: string): string | null {
  const kept = 'Your text is kept in this tab: copy what you want to keep';
  if (code === FORBIDDEN_CLOSE)
    return `you may not edit this page any more (your role, or who the page belongs to, changed). ${kept}`;
  // A renamed page (a reason: its new slug) is phase 'moved', not a refusal.
  if (code === GONE_CLOSE && !reason) return `this page was deleted. ${kept}`;
  return null;
}

/** The reason when the server names another document than this tab's (live-document.ts). */
export const REPLACED =
  'the page’s shared document was made again. Your text is kept here: Save draft merges it into the page, and a reload after that edits live again';

/** Said, and a save refused with it, once another person is signed in in this tab's browser. */
export const SOMEONE_ELSE =
  'Live editing stopped: someone else is signed in in this browser now, and nothing typed in this tab is sent or saved as theirs. What you typed and did not save is kept in this browser for you. To edit as the person signed in now, reload the page.';

/** Said, and a save refused with it, once the page was found renamed (phase 'moved'). */
export function movedMessage(slug: string): string {
  return `Live editing stopped: this page was renamed, and is at /preview/${slug} now. Open it there: what you typed here goes with you (this browser keeps it). This tab saves nothing more.`;
}

/** The status line's words for the document's side of saving; null: the form's status says. */
export function liveStatusOf(
  phase: LivePhase,
  pending: number,
  /** Why it stopped, with 'refused' (stoppedReasonOf, REPLACED). */
  reason: string | null = null,
): { kind: 'saved' | 'saving' | 'offline' | 'refused'; message?: string } | null {
  if (phase === 'synced') return pending === 0 ? { kind: 'saved' } : { kind: 'saving' };
  if (phase === 'offline')
    return {
      kind: 'offline',
      message:
        pending === 0
          ? 'Reconnecting… Everything you typed is saved.'
          : 'Not connected: what you type is kept in this tab and sent when the connection is back. Do not close it.',
    };
  if (phase === 'paused')
    return {
      kind: 'refused',
      message:
        pending === 0
          ? 'Live editing paused: your session ended, or you may no longer edit this page. Everything you typed is saved. Sign in again in another tab, then come back here.'
          : 'Live editing paused: your session ended, or you may no longer edit this page. What you type is kept in this tab and sent once you are signed in again: sign in in another tab, then come back here. Do not close this one.',
    };
  if (phase === 'moved') return { kind: 'refused', message: movedMessage(reason ?? '') };
  if (phase === 'someoneElse')
    return {
      kind: 'refused',
      message: SOMEONE_ELSE,
    };
  if (phase === 'refused')
    return {
      kind: 'refused',
      message: reason
        ? `Live editing stopped: ${reason}.`
        : 'Live editing stopped: this page no longer accepts your changes. Your text is kept here: Save draft saves it.',
    };
  return null;
}

/**
 * The text the editor shows at its first sync: the document's, with what was typed before it
 * (from the body the page was rendered with) merged in as this person's edit — three ways, so
 * neither the document's text nor the typing is put in twice, and where both changed the same
 * lines the typing is kept (as the form's merge keeps the editor's words).
 */
export function firstSyncText(typed: string, rendered: string, remote: string): string {
  if (typed === rendered || typed === remote) return remote;
  const fields = { title: '', summary: '' };
  return mergeTexts(
    { ...fields, body: typed },
    { ...fields, body: rendered },
    { ...fields, body: remote },
  ).text.body;
}

/** A change to a text as Yjs describes it (Y.YTextEvent's delta): kept, inserted, deleted. */
export type TextDelta = readonly { retain?: number; insert?: unknown; delete?: number }[];

/**
 * Where a caret at `position` in the text before `delta` is in the text after it: text inserted
 * before it (or where it is) pushes it on, text deleted before it pulls it back, and a caret in
 * deleted text goes to where that text was. An input's caret follows another person's edit of
 * the title or summary this way, as CodeMirror's does in the body.
 */
export function mapCaret(position: number, delta: TextDelta): number {
  let old = 0;
  let mapped = position;
  for (const op of delta) {
    if (old > position) break;
    if (op.retain !== undefined) old += op.retain;
    else if (typeof op.insert === 'string') {
      // Inserted where the caret is: before it (the caret stays after the other's words only if
      // it was past them; typing at the same place, theirs land before ours).
      if (old <= position) mapped += op.insert.length;
    } else if (op.delete !== undefined) {
      const gone = Math.min(op.delete, Math.max(0, position - old));
      mapped -= gone;
      old += op.delete;
    }
  }
  return Math.max(0, mapped);
}
