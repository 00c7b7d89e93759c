'use client';
// The phone layout's two tabs (issue 26): where the editor's two columns stack, the live pane
// would start far below the body's text, so Write (the fields and the body) and Preview (the
// pane) become tabs above the text — the WAI-ARIA tabs pattern: arrow keys, Home and End move
// between them and show each at once, and only the chosen tab is in the Tab order. Both panels
// stay mounted (the other is `hidden`), so the body editor keeps its text, selection and undo
// history across a switch. They appear only after hydration: without JavaScript the form and
// the server's preview stay stacked, both in view.
import { type KeyboardEvent, useEffect, useState } from 'react';

export type EditorView = 'write' | 'preview';

/** Where the editor's columns stack (preview.css, .editor-layout): below it, two tabs. */
export const TABBED_WIDTH = '(max-width: 60rem)';

const VIEWS: readonly EditorView[] = ['write', 'preview'];
const LABELS: Record<EditorView, string> = { write: 'Write', preview: 'Preview' };
const tabId = (view: EditorView) => `editor-tab-${view}`;
const panelId = (view: EditorView) => `editor-panel-${view}`;

/** Whether `query` matches, once `enabled` (after hydration: the server cannot know). */
export function useMediaQuery(query: string, enabled: boolean): boolean {
  const [matches, setMatches] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const list = window.matchMedia(query);
    const follow = () => setMatches(list.matches);
    follow();
    list.addEventListener('change', follow);
    return () => list.removeEventListener('change', follow);
  }, [query, enabled]);
  return matches;
}

/** A panel's attributes: a tabpanel while tabbed (hidden unless chosen), nothing otherwise. */
export function panelProps(view: EditorView, tabbed: boolean, shown: EditorView) {
  if (!tabbed) return {};
  return {
    role: 'tabpanel',
    id: panelId(view),
    'aria-labelledby': tabId(view),
    hidden: view !== shown,
  } as const;
}

export function EditorTabs({
  shown,
  onShow,
}: {
  shown: EditorView;
  onShow: (view: EditorView) => void;
}) {
  const move = (event: KeyboardEvent<HTMLButtonElement>) => {
    const at = VIEWS.indexOf(shown);
    const last = VIEWS.length - 1;
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % VIEWS.length
        : event.key === 'ArrowLeft'
          ? (at + last) % VIEWS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    const next = to === undefined ? undefined : VIEWS[to];
    if (next === undefined) return;
    event.preventDefault();
    onShow(next);
    document.getElementById(tabId(next))?.focus();
  };
  return (
    <div role="tablist" aria-label="Editor view" className="editor-tabs">
      {VIEWS.map((view) => (
        <button
          key={view}
          type="button"
          role="tab"
          id={tabId(view)}
          aria-controls={panelId(view)}
          aria-selected={view === shown}
          tabIndex={view === shown ? 0 : -1}
          onClick={() => onShow(view)}
          onKeyDown={move}
        >
          {LABELS[view]}
        </button>
      ))}
    </div>
  );
}
