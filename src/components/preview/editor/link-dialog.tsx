// The body's link dialog (the toolbar's Link, Ctrl/Cmd+K): asks for the address, or offers the
// site's own published pages by title as the editor types (a bounded search on the server:
// findLinkTargets). A modal <dialog> keeps focus inside it; Escape or Cancel closes it, and the
// caller puts focus back in the text. Whether it is open is the caller's state alone: Escape
// and Cancel tell the caller at once, and the dialog closes because `open` went false. Closing
// it directly left the caller's state to the dialog's close event, which comes a task later: a
// Ctrl+K pressed in between found the dialog still "open" to the caller and did nothing. It holds no <form>: it sits inside the editor's form, and
// Enter in it must insert the link, never submit the page.
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { findLinkTargets, type LinkTarget } from '../../../lib/editor/actions/link-targets';

/** Long enough not to search at every key of a word. */
const SEARCH_AFTER_MS = 200;

export function LinkDialog({
  open,
  selected,
  onInsert,
  onClose,
}: {
  open: boolean;
  /** The text the link will be made of (empty: the page's title, or a placeholder). */
  selected: string;
  onInsert: (url: string, title?: string) => void;
  /** Closed without a link (Escape, Cancel) or after one: focus goes back to the text. */
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [url, setUrl] = useState('');
  const [find, setFind] = useState('');
  const [pages, setPages] = useState<LinkTarget[]>([]);
  const [problem, setProblem] = useState('');

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setUrl('');
      setFind('');
      setProblem('');
      element.showModal();
    } else if (!open && element.open) element.close();
  }, [open]);

  // The pages matching what is typed (the first ones by title before anything is).
  const request = useRef(0);
  useEffect(() => {
    if (!open) return;
    const asked = ++request.current;
    const timer = setTimeout(async () => {
      try {
        const answer = await findLinkTargets({ text: find.slice(0, 200) });
        if (asked !== request.current) return;
        if ('error' in answer) {
          setProblem(answer.error);
          setPages([]);
        } else {
          setProblem('');
          setPages(answer.pages);
        }
      } catch {
        if (asked === request.current)
          setProblem('The site’s pages could not be searched just now; type the address.');
      }
    }, SEARCH_AFTER_MS);
    return () => clearTimeout(timer);
  }, [open, find]);

  const insert = (address: string, title?: string) => {
    const trimmed = address.trim();
    if (trimmed === '') {
      setProblem('Type the address the link goes to, or choose a page.');
      return;
    }
    onInsert(trimmed, title);
  };
  const enterInserts = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      // A search field would only clear itself on the first Escape: one press closes.
      event.preventDefault();
      onClose();
      return;
    }
    if (event.key !== 'Enter') return;
    // Enter in a field of the editor's form would submit the page.
    event.preventDefault();
    if (pages[0] && event.currentTarget.type === 'search') insert(pages[0].path, pages[0].title);
    else insert(url);
  };

  return (
    <dialog
      ref={dialog}
      className="link-dialog"
      aria-labelledby={`${id}-title`}
      // Escape anywhere else in it: the browser would close it on its own; the caller does.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // Closed by the browser all the same (it may refuse a second cancel in a row): the caller
      // is told. A close event that arrives after a Ctrl+K opened it again is old news.
      onClose={() => {
        if (!dialog.current?.open) onClose();
      }}
    >
      <h2 id={`${id}-title`}>Insert a link</h2>
      <p className="hint">
        {selected ? `Links “${selected.slice(0, 80)}${selected.length > 80 ? '…' : ''}”.` : null}
      </p>
      <label>
        Address
        <input
          type="url"
          name="link-url"
          form="link-dialog-none"
          value={url}
          placeholder="https://"
          autoComplete="off"
          onChange={(event) => setUrl(event.target.value)}
          onKeyDown={enterInserts}
        />
      </label>
      <label>
        Or find a page on this site
        <input
          type="search"
          name="link-find"
          form="link-dialog-none"
          value={find}
          autoComplete="off"
          onChange={(event) => setFind(event.target.value)}
          onKeyDown={enterInserts}
          aria-describedby={`${id}-found`}
        />
      </label>
      <p id={`${id}-found`} className="hint" aria-live="polite">
        {problem ||
          (pages.length === 0
            ? 'No published page matches.'
            : `${pages.length} ${pages.length === 1 ? 'page' : 'pages'}.`)}
      </p>
      <ul className="link-targets">
        {pages.map((page) => (
          <li key={page.path}>
            <button type="button" onClick={() => insert(page.path, page.title)}>
              {page.title} <span className="hint">{page.path}</span>
            </button>
          </li>
        ))}
      </ul>
      <div className="confirm-actions">
        <button type="button" onClick={() => insert(url)}>
          Insert link
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
