// The body field: the plain text box the server renders (all there is without JavaScript), and
// once the page has hydrated, the CodeMirror editor in its place (body-codemirror.ts, loaded
// only then and only here). The form's state (`value`) stays the one source of the text: the
// editor reports every change to it, takes changes made from outside (a recovered draft, their
// version after a conflict), and a hidden field carries it when the form is submitted.
import {
  type ClipboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useRef,
  useState,
} from 'react';
import { flushSync } from 'react-dom';
import type { BodyEditorHooks, BodyEditor as Editor } from './body-codemirror';
import { pastedImage } from './use-image-drop';

const LABEL_ID = 'editor-body-label';

/**
 * At most this many reports kept while React is behind: a burst of another person's changes
 * (dozens of updates arriving at once when a connection comes back) is one report each, and a
 * render that lagged 16 of them was put back as if from outside, undoing them in the shared
 * document (issue 30's misplaced words). React catching up empties the list.
 */
const RECENT_REPORTS = 2_000;

export function BodyEditor({
  value,
  mergedBody,
  enhanced,
  textarea,
  editor,
  hooks,
  invalid,
  dragging,
  onReady,
  children,
}: {
  /** The CodeMirror editor is on screen (true) or gone (false): the live binding waits for it. */
  onReady?: (ready: boolean) => void;
  value: string;
  /** The body as the last merge of another editor's changes left it (not an undo step). */
  mergedBody: RefObject<string | null>;
  enhanced: boolean;
  textarea: RefObject<HTMLTextAreaElement | null>;
  editor: RefObject<Editor | null>;
  hooks: BodyEditorHooks;
  /** aria-invalid and aria-describedby while the field is refused. */
  invalid: { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
  /** Files are being dragged over the window. */
  dragging: boolean;
  /** Between the label and the text: the toolbar, the image waiting for its alt text. */
  children: ReactNode;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  // The latest props for the editor's callbacks, which are made once.
  const latest = useRef({ value, hooks, onReady });
  latest.current = { value, hooks, onReady };
  // The text the editor last reported, and the few before it. React may commit a render that
  // lags the latest report (a route re-render in a transition, after an autosave): its `value`
  // is one the editor reported a moment ago, not a change from outside, and putting it back in
  // the editor would take away the keystrokes since (seen: a letter lost on a loaded machine).
  // Only a text the editor never reported (a recovered draft, their version) replaces its own.
  const reported = useRef(value);
  const recent = useRef<string[]>([]);
  const attributes = Object.fromEntries(
    Object.entries({ 'aria-labelledby': LABEL_ID, ...invalid })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
  const attributesKey = JSON.stringify(attributes);

  // biome-ignore lint/correctness/useExhaustiveDependencies: made once per page; the attributes follow in the effect below
  useEffect(() => {
    if (!enhanced) return;
    let cancelled = false;
    let made: Editor | undefined;
    let reportOnSubmit: (() => void) | undefined;
    import('./body-codemirror')
      .then(({ createBodyEditor }) => {
        const parent = holder.current;
        if (cancelled || !parent) return;
        const area = textarea.current;
        const text = latest.current.value;
        made = createBodyEditor(
          parent,
          text,
          attributes,
          {
            onChange: (next) => {
              reported.current = next;
              recent.current = [next, ...recent.current.slice(0, RECENT_REPORTS - 1)];
              latest.current.hooks.onChange(next);
            },
            onWrap: (wrap) => latest.current.hooks.onWrap(wrap),
            onLink: () => latest.current.hooks.onLink(),
            onImage: (file) => latest.current.hooks.onImage(file),
            onFocus: () => latest.current.hooks.onFocus(),
          },
          area
            ? {
                anchor: area.selectionStart,
                head: area.selectionEnd,
                focused: document.activeElement === area,
              }
            : undefined,
        );
        reported.current = text;
        editor.current = made;
        // A submit (a click, Enter, Ctrl+S) sends the hidden field, which React fills when it
        // renders: a change not made by a key (a test's, an image's arrival) may not be rendered
        // yet. The text on screen is rendered into it first (capturing, on the window: before
        // React reads the form).
        const view = made;
        reportOnSubmit = () => flushSync(() => view.report());
        window.addEventListener('submit', reportOnSubmit, true);
        setReady(true);
        latest.current.onReady?.(true);
      })
      .catch(() => {
        // The editor's code did not load (a deploy meanwhile, a network fault): the plain text
        // box stays, and works.
      });
    return () => {
      cancelled = true;
      if (reportOnSubmit) window.removeEventListener('submit', reportOnSubmit, true);
      made?.destroy();
      editor.current = null;
      setReady(false);
      latest.current.onReady?.(false);
    };
  }, [enhanced]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: mergedBody is a ref, read as the text arrives
  useEffect(() => {
    const view = editor.current;
    if (!ready || !view) return;
    if (value === reported.current) {
      // Caught up: no later render carries an older report.
      recent.current = [];
      return;
    }
    if (recent.current.includes(value)) {
      // A render behind the editor: the page is told the text again, and catches up.
      view.report();
      return;
    }
    reported.current = value;
    recent.current = [];
    view.setText(value, value !== mergedBody.current);
  }, [ready, value, editor]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the attributes
  useEffect(() => {
    if (ready) editor.current?.setAttributes(attributes);
  }, [ready, attributesKey]);

  return (
    <>
      {/* Without the editor, the label names the text box; with it, the editor's content
          element names itself by this label (aria-labelledby), and a click on it focuses. */}
      {ready ? (
        // biome-ignore lint/a11y/noLabelWithoutControl: the editor's content element is labelled by it (aria-labelledby)
        // biome-ignore lint/a11y/useKeyWithClickEvents: a pointer's shortcut into the editor, which the keyboard reaches by Tab
        <label id={LABEL_ID} onClick={() => editor.current?.focus()}>
          Body (Markdown)
        </label>
      ) : (
        <label id={LABEL_ID} htmlFor="editor-body">
          Body (Markdown)
        </label>
      )}
      {children}
      {ready ? <input type="hidden" name="body" value={value} /> : null}
      <div
        ref={holder}
        className={`body-codemirror${dragging ? ' drop-target' : ''}`}
        hidden={!ready}
      />
      {ready ? null : (
        <textarea
          id="editor-body"
          ref={textarea}
          name="body"
          value={value}
          onChange={(event) => latest.current.hooks.onChange(event.target.value)}
          onFocus={() => latest.current.hooks.onFocus()}
          onPaste={(event: ClipboardEvent<HTMLTextAreaElement>) => {
            const file = pastedImage(event.clipboardData);
            if (!file) return;
            event.preventDefault();
            latest.current.hooks.onImage(file);
          }}
          className={dragging ? 'drop-target' : undefined}
          rows={20}
          {...invalid}
        />
      )}
    </>
  );
}
