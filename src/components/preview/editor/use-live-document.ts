// Owns the editor's side of co-editing (decision record 0051): the page's shared document opened
// once the editor has hydrated (live-document.ts), the CodeMirror body bound to it after its
// first sync — the text typed before that merged in once, never inserted a second time — and
// who else is here. When the server names another document of the page (made again), the
// editor opens that one the same way, the base then being what the old one had stored from this
// tab: only the typing it had not stored goes in, and the others' typing is not doubled. Without
// a socket (the dev server, a blocked WebSocket) nothing changes: the phase says 'unavailable'
// and the editor saves its text as it always has.
import {
  type RefObject,
  useCallback,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { reopenedText, textEdits } from '../../../lib/content/text-edits';
import type { BodyEditor } from './body-codemirror';
import type { LiveDocument, LiveSnapshot, LiveTexts } from './live-document';
import {
  bodySourceOf,
  firstSyncText,
  type LiveUser,
  othersHere,
  type Present,
} from './live-presence';

const IDLE: LiveSnapshot = {
  phase: 'unavailable',
  pending: 0,
  ackedAt: null,
  reason: null,
  notice: null,
  acknowledged: null,
  copyBrought: false,
};
/**
 * Documents made again that a page view follows; past this (something makes the page's document
 * again and again) the tab stops live editing with its text kept, and Save draft merges it.
 */
const REOPENS_MAX = 5;
const NOBODY: Present[] = [];

export type LiveEditing = {
  document: LiveDocument | null;
  state: LiveSnapshot;
  /** The editor shows the document (bound after its first sync). */
  bound: boolean;
  /**
   * The document is wanted and not bound yet, nor given up on: what the form holds now is
   * merged into it at the first sync as typed here, so nothing may set the whole text meanwhile
   * (a backup put back then took the others' lines away: the gate's PostgreSQL run, loaded).
   */
  settling: boolean;
  /** Where saves take the body from (live-presence.ts bodySourceOf). */
  bodySource: 'document' | 'form';
  /** The other people on this page now. */
  others: Present[];
  /**
   * The fields as the last document stored them from this tab, once it was made again: the base
   * the next first sync merges the title and summary typed since against (null: the page as
   * rendered is).
   */
  reopenedFrom: LiveTexts | null;
  /**
   * Opening the document its old one was made again into, not bound yet: a save waits for it
   * (sent from the form meanwhile, it would be merged against the last draft the tab saw, and
   * the others' typing it holds would go in twice).
   */
  reopening: boolean;
  /**
   * Resolves once every local change is stored (true), or false after `timeoutMs`. The document
   * made again meanwhile, it waits for the new one to be bound and to have stored the typing
   * merged into it.
   */
  whenAcknowledged: (timeoutMs: number) => Promise<boolean>;
};

export function useLiveDocument({
  slug,
  user,
  enabled,
  editor,
  editorReady,
  initialBody,
}: {
  slug: string;
  user: LiveUser | null;
  /** Hydrated, an existing page, a signed-in person. */
  enabled: boolean;
  editor: RefObject<BodyEditor | null>;
  /** The CodeMirror editor is on screen (body-editor.tsx). */
  editorReady: boolean;
  /** The body the page was rendered with: the base for text typed before the first sync. */
  initialBody: string;
}): LiveEditing {
  const [live, setLive] = useState<LiveDocument | null>(null);
  const [bound, setBound] = useState(false);
  const [failed, setFailed] = useState(false);
  // Counts the documents opened in this page view; the one they were made again from.
  const [reopened, setReopened] = useState<{ count: number; from: LiveTexts | null }>({
    count: 0,
    from: null,
  });
  const userKey = user ? JSON.stringify(user) : '';

  // biome-ignore lint/correctness/useExhaustiveDependencies: the person is read through its key
  useEffect(() => {
    if (!enabled || !user || typeof WebSocket === 'undefined') return;
    let made: LiveDocument | null = null;
    let cancelled = false;
    const leave = () => made?.destroy();
    // Loaded only here (Yjs and the protocol), as the CodeMirror editor is: a visitor's page and
    // the editor's first paint never carry it.
    import('./live-document')
      .then(({ LiveDocument }) => {
        if (cancelled) return;
        made = new LiveDocument(slug, user, reopened.count < REOPENS_MAX);
        setLive(made);
        // Gone from the others' lists at once when the tab closes.
        window.addEventListener('pagehide', leave);
      })
      .catch(() => {
        // Its code did not load (a deploy meanwhile): the editor saves as without it.
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      window.removeEventListener('pagehide', leave);
      // The editor stops writing into the document before it goes (a page renamed by Save opens
      // its new address's); an editor already gone has nothing to let go of.
      try {
        editor.current?.unbind();
      } catch {
        // Destroyed with the page.
      }
      made?.destroy();
      setLive(null);
      setBound(false);
    };
  }, [enabled, slug, userKey, reopened.count]);

  const state = useSyncExternalStore(
    useCallback((listener) => (live ? live.subscribe(listener) : () => undefined), [live]),
    () => live?.state ?? IDLE,
    () => IDLE,
  );

  // Made again: the old document goes (the effect above unbinds the editor and destroys it) and
  // the new one is opened, with what the old one had stored from this tab as the base.
  const remadeFrom = state.phase === 'remade' ? state.acknowledged : null;
  useEffect(() => {
    if (remadeFrom) setReopened(({ count }) => ({ count: count + 1, from: remadeFrom }));
  }, [remadeFrom]);

  // The first sync: the editor takes the document's text, with what was typed before it (from
  // the text the page was rendered with, or the last document stored) merged in as this
  // person's edit — once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: initialBody is the base at mount
  useEffect(() => {
    const view = editor.current;
    if (!live || bound || !editorReady || !view || state.phase !== 'synced') return;
    const remote = live.text.toString();
    const target = reopened.from
      ? reopenedText(view.text(), reopened.from.body, remote)
      : firstSyncText(view.text(), initialBody, remote);
    // Each change at its place (from the last, so the places before stay right): the text
    // between is not deleted and typed again under the others typing in it.
    const edits = textEdits(remote, target);
    if (edits.length > 0)
      live.doc.transact(() => {
        for (const edit of edits.reverse()) {
          if (edit.remove > 0) live.text.delete(edit.at, edit.remove);
          if (edit.insert) live.text.insert(edit.at, edit.insert);
        }
      });
    view.bind({ text: live.text, awareness: live.awareness, undoManager: live.undoManager });
    setBound(true);
  }, [live, bound, editorReady, state.phase, editor, reopened.from]);

  const others = useSyncExternalStore(
    useCallback(
      (listener) => {
        if (!live) return () => undefined;
        live.awareness.on('change', listener);
        return () => live.awareness.off('change', listener);
      },
      [live],
    ),
    usePeopleSnapshot(live, user?.key ?? ''),
    () => NOBODY,
  );

  const settling =
    enabled &&
    user !== null &&
    typeof WebSocket !== 'undefined' &&
    !failed &&
    !bound &&
    (live === null || state.phase === 'connecting' || state.phase === 'synced');
  const reopening = settling && reopened.count > 0;
  // Read by a save's wait as it goes on, across a document made again.
  const latest = useRef({ live, reopening });
  latest.current = { live, reopening };

  return {
    document: live,
    state,
    bound,
    settling,
    reopening,
    bodySource: bodySourceOf(state.phase, bound),
    others,
    reopenedFrom: reopened.from,
    whenAcknowledged: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const now = latest.current;
        if (now.reopening || (now.live && now.live.state.phase === 'remade')) {
          // Between two documents: asked again in a moment.
          if (Date.now() >= deadline) return false;
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        if (!now.live) return true;
        const stored = await now.live.whenAcknowledged(Math.max(0, deadline - Date.now()));
        // The document made again while waiting: its answer is no longer the one asked for.
        if (stored || latest.current.live === now.live || Date.now() >= deadline) return stored;
      }
    },
  };
}

/** A snapshot function for the people here that returns the same array while nobody changed. */
function usePeopleSnapshot(live: LiveDocument | null, selfKey: string): () => Present[] {
  const [cache] = useState(() => ({ key: '', people: NOBODY }));
  return () => {
    if (!live) return NOBODY;
    const people = othersHere(live.awareness.getStates(), selfKey);
    const key = people.map((p) => `${p.key} ${p.name} ${p.color}`).join('\n');
    if (key !== cache.key) {
      cache.key = key;
      cache.people = people;
    }
    return cache.people;
  };
}
