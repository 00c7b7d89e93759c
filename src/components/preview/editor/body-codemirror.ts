// Owns the body's CodeMirror 6 editor (decision record 0029): Markdown colouring, native
// undo/redo that includes every toolbar action (each is one transaction, its own undo step),
// Ctrl/Cmd+B, I, K, list and quote continuation on Enter, find and replace (Ctrl/Cmd+F), a URL
// pasted over a selection made a link, HTML pasted alone made its text, spell-check, and images
// pasted or dropped handed to the upload panel. Only the editor screen imports it, and only once
// the page has hydrated (body-editor.tsx), so a visitor's page never loads it and the editor
// screen paints its plain text box first.
import { defaultKeymap, history, historyKeymap, isolateHistory } from '@codemirror/commands';
import { markdownKeymap, markdownLanguage, pasteURLAsLink } from '@codemirror/lang-markdown';
import { LanguageSupport, syntaxHighlighting } from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { Annotation, Compartment, EditorState, Prec, Transaction } from '@codemirror/state';
import { type Command, EditorView, keymap, ViewPlugin } from '@codemirror/view';
import { tagHighlighter, tags } from '@lezer/highlight';
import { yCollab, yUndoManagerKeymap } from 'y-codemirror.next';
import type { Awareness } from 'y-protocols/awareness';
import type * as Y from 'yjs';
import { textEdits } from '../../../lib/content/text-edits';
import { type Edit, WRAPS, type Wrap } from './markdown-edits';
import { pastedHtmlText } from './pasted-html';
import { pastedImage } from './use-image-drop';

/** An empty item of an outer list or quote: the marker and nothing after it. */
const EMPTY_OUTER_ITEM = /^(?:[-*+]|\d{1,9}[.)]) ?$|^> ?$/;

/**
 * Enter on the empty last item of an outer list or quote ends it with a blank line, so what is
 * typed next is a paragraph of its own. lang-markdown only takes the marker away, and a line
 * typed straight after a list item is, in Markdown, more of that item ("- two" then "After."
 * renders as one item "two After."). One change, so one undo step. Nested items and the rest
 * are lang-markdown's (it outdents a nested empty item).
 */
const endListWithBlankLine: Command = (view) => {
  const { state } = view;
  const range = state.selection.main;
  if (!range.empty || state.selection.ranges.length > 1) return false;
  const line = state.doc.lineAt(range.head);
  if (range.head !== line.to || !EMPTY_OUTER_ITEM.test(line.text)) return false;
  // Only the last item: an empty item between others is lang-markdown's to handle.
  if (line.number < state.doc.lines && state.doc.line(line.number + 1).text.trim() !== '')
    return false;
  if (line.number === 1 || state.doc.line(line.number - 1).text.trim() === '') return false;
  view.dispatch(
    state.update({
      changes: { from: line.from, to: line.to, insert: '\n' },
      selection: { anchor: line.from + 1 },
      scrollIntoView: true,
      userEvent: 'input',
      // Its own undo step, whatever is typed straight after it.
      annotations: isolateHistory.of('full'),
    }),
  );
  return true;
};

/** What the editor tells the page about. */
export type BodyEditorHooks = {
  /** The text changed (typing, a command, Undo): the page's state follows. */
  onChange: (text: string) => void;
  /** Ctrl/Cmd+B or I: the same Markdown as the toolbar's button. */
  onWrap: (wrap: Wrap) => void;
  /** Ctrl/Cmd+K: the link dialog. */
  onLink: () => void;
  /** An image pasted (a screenshot, a copied picture): the upload panel asks for alt text. */
  onImage: (file: File) => void;
  onFocus: () => void;
};

/** The editor as the page sees it (body-editor.tsx and use-body-text.ts). */
export type BodyEditor = {
  text: () => string;
  /** The main selection (from ≤ to). */
  selection: () => { from: number; to: number };
  /** Applies one edit as a single undo step and puts the caret/selection where it says. */
  apply: (edit: Edit, userEvent: string) => void;
  /** Reports the text again (a render behind the editor catches up; a submit sends it). */
  report: () => void;
  /**
   * Replaces the text from outside. A writer's choice (a recovered draft, their version after
   * a conflict) is an undo step of its own; another editor's changes merged in are not (`undoable`
   * false): Undo then takes back the writer's own typing and leaves theirs, as in a shared
   * document — undoing a merge silently dropped the other editor's words (hostile pass).
   */
  setText: (text: string, undoable?: boolean) => void;
  /** The content element's attributes that follow the form (aria-invalid, describedby). */
  setAttributes: (attributes: Record<string, string>) => void;
  /**
   * Binds the text to a page's shared document (use-live-document.ts), whose text it must
   * already hold or take now: from then on every change goes both ways through the document,
   * the others' carets and selections show with their names, and Undo (Yjs's UndoManager)
   * takes back this person's own changes only.
   */
  bind: (live: { text: Y.Text; awareness: Awareness; undoManager: Y.UndoManager }) => void;
  /** Lets the document go (it is being closed): the text stays, with CodeMirror's own history. */
  unbind: () => void;
  focus: () => void;
  destroy: () => void;
};

/** Marks a change made from outside, which the page already knows about. */
const fromPage = Annotation.define<boolean>();

// Classes instead of inline styles: the colours live in preview.css with the site's variables,
// so they follow light and dark like the rest of the editor.
const markdownClasses = tagHighlighter([
  { tag: tags.heading, class: 'md-heading' },
  { tag: tags.strong, class: 'md-strong' },
  { tag: tags.emphasis, class: 'md-emphasis' },
  { tag: tags.strikethrough, class: 'md-strike' },
  { tag: [tags.link, tags.url], class: 'md-link' },
  { tag: tags.monospace, class: 'md-code' },
  { tag: tags.quote, class: 'md-quote' },
  { tag: [tags.processingInstruction, tags.contentSeparator], class: 'md-mark' },
  { tag: [tags.labelName, tags.string, tags.comment], class: 'md-meta' },
]);

export function createBodyEditor(
  parent: HTMLElement,
  doc: string,
  attributes: Record<string, string>,
  hooks: BodyEditorHooks,
  /** Where the plain text box's caret was, and whether it had focus, as the editor replaces it. */
  carried?: { anchor: number; head: number; focused: boolean },
): BodyEditor {
  const contentAttributes = new Compartment();
  // CodeMirror's own history until the editor is bound to a shared document, then Yjs's.
  const collaboration = new Compartment();
  let undoManager: Y.UndoManager | null = null;
  const attributesOf = (extra: Record<string, string>) =>
    EditorView.contentAttributes.of({
      // In the tab order as it is anyway (contenteditable), said outright: axe's check that a
      // scrolling region (CodeMirror's scroller, once the text is long) holds something a
      // keyboard can reach does not count contenteditable alone.
      tabindex: '0',
      spellcheck: 'true',
      autocorrect: 'on',
      autocapitalize: 'sentences',
      ...extra,
    });
  // The page hears of every change at once, inside the key's own event, as it heard of the
  // plain text box's: its state is then never behind the text on screen when anything else
  // reads it (an autosave's answer merging another tab's changes into "what is typed now" must
  // see the last keystroke). Reporting a frame later made typing faster on a 5 000-line page
  // and lost a keystroke to such a merge: see decision record 0029.
  const report = () => {
    hooks.onChange(view.state.doc.toString());
  };
  const run = (action: () => void) => () => {
    action();
    return true;
  };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      selection: carried
        ? { anchor: Math.min(carried.anchor, doc.length), head: Math.min(carried.head, doc.length) }
        : undefined,
      extensions: [
        collaboration.of([history(), keymap.of(historyKeymap)]),
        // Before the default keymap: its Mod-i selects the syntax node around the caret.
        Prec.high(
          keymap.of([
            { key: 'Mod-b', run: run(() => hooks.onWrap(WRAPS.bold)) },
            { key: 'Mod-i', run: run(() => hooks.onWrap(WRAPS.italic)) },
            { key: 'Mod-k', run: run(hooks.onLink) },
          ]),
        ),
        keymap.of([...defaultKeymap, ...searchKeymap]),
        // Markdown (with GitHub's tables and strikethrough, as markdown-it renders them); Enter
        // continues a list or quote (an empty item ends it); a URL pasted over a selection makes
        // it a link. Not lang-markdown's markdown(): it brings the HTML, CSS and JavaScript
        // grammars for HTML inside Markdown, three times the code for colours nobody asked for.
        new LanguageSupport(markdownLanguage, [
          Prec.high(keymap.of([{ key: 'Enter', run: endListWithBlankLine }, ...markdownKeymap])),
          pasteURLAsLink,
        ]),
        syntaxHighlighting(markdownClasses),
        search({ top: true }),
        highlightSelectionMatches(),
        EditorView.lineWrapping,
        contentAttributes.of(attributesOf(attributes)),
        EditorView.domEventHandlers({
          paste: (event, view) => {
            const data = event.clipboardData;
            const file = pastedImage(data);
            if (file) {
              hooks.onImage(file);
              return true;
            }
            if (!data?.types.includes('text/html')) return false;
            if (data.types.includes('text/plain') || data.types.includes('text/uri-list'))
              return false;
            // HTML alone (some web apps copy only that): its text, not nothing.
            event.preventDefault();
            view.dispatch(view.state.replaceSelection(pastedHtmlText(data.getData('text/html'))), {
              userEvent: 'input.paste',
              scrollIntoView: true,
            });
            return true;
          },
          // CodeMirror would read a dropped file as text into the page; files go to the upload
          // panel instead (use-image-drop.ts hears the drop on the window).
          drop: (event) => event.dataTransfer?.types.includes('Files') ?? false,
          focus: () => {
            hooks.onFocus();
            return false;
          },
        }),
        EditorView.updateListener.of((update) => {
          // Bound to a shared document, the caret moved elsewhere starts a new undo step, as
          // CodeMirror's own history does: Yjs's would join typing in two places within half a
          // second into one.
          if (!update.docChanged && update.selectionSet) undoManager?.stopCapturing();
          if (!update.docChanged) return;
          if (update.transactions.some((tr) => tr.annotation(isolateHistory)))
            undoManager?.stopCapturing();
          if (update.transactions.every((tr) => tr.annotation(fromPage))) return;
          report();
        }),
      ],
    }),
  });

  if (carried?.focused) view.focus();

  return {
    text: () => view.state.doc.toString(),
    selection: () => {
      const { from, to } = view.state.selection.main;
      return { from, to };
    },
    apply: (edit, userEvent) => {
      // Its own undo step in a shared document too.
      undoManager?.stopCapturing();
      view.dispatch({
        changes: { from: edit.from, to: edit.to, insert: edit.insert },
        selection: { anchor: edit.anchor, head: edit.head },
        // Its own undo step: without it, a button pressed right after typing would be undone
        // together with the words typed before it.
        annotations: isolateHistory.of('full'),
        userEvent,
        scrollIntoView: true,
      });
      undoManager?.stopCapturing();
      view.focus();
    },
    setText: (text, undoable = true) => {
      const current = view.state.doc.toString();
      if (current === text) return;
      // Only the part that differs: the caret stays where it was in the unchanged text, and
      // Undo (one step) brings back what was replaced.
      let start = 0;
      const shortest = Math.min(current.length, text.length);
      while (start < shortest && current.charCodeAt(start) === text.charCodeAt(start)) start++;
      let end = 0;
      while (
        end < shortest - start &&
        current.charCodeAt(current.length - 1 - end) === text.charCodeAt(text.length - 1 - end)
      )
        end++;
      view.dispatch({
        changes: {
          from: start,
          to: current.length - end,
          insert: text.slice(start, text.length - end),
        },
        annotations: undoable
          ? [fromPage.of(true), isolateHistory.of('full')]
          : [fromPage.of(true), Transaction.addToHistory.of(false)],
      });
    },
    setAttributes: (extra) => {
      view.dispatch({ effects: contentAttributes.reconfigure(attributesOf(extra)) });
    },
    bind: (live) => {
      undoManager = live.undoManager;
      const edits = textEdits(view.state.doc.toString(), live.text.toString());
      view.dispatch({
        // The document's text, as one transaction the page hears of (its state follows), kept
        // out of Undo, each change at its place: the caret stays where the text around it is
        // unchanged (one change spanning it threw it to its end). The binding starts from it.
        changes: edits.map((edit) => ({
          from: edit.at,
          to: edit.at + edit.remove,
          insert: edit.insert,
        })),
        annotations: Transaction.addToHistory.of(false),
        effects: collaboration.reconfigure([
          Prec.high(keymap.of(yUndoManagerKeymap)),
          // Before yCollab's sync plugin (plugins update in order): a change CodeMirror's history
          // would keep as its own step (isolateHistory: a toolbar action, Enter ending a list)
          // starts a new Yjs undo step, and the updateListener above ends it.
          ViewPlugin.define(() => ({
            update: (update) => {
              if (update.transactions.some((tr) => tr.annotation(isolateHistory)))
                live.undoManager.stopCapturing();
            },
          })),
          yCollab(live.text, live.awareness, { undoManager: live.undoManager }),
        ]),
      });
    },
    unbind: () => {
      if (undoManager === null) return;
      undoManager = null;
      view.dispatch({ effects: collaboration.reconfigure([history(), keymap.of(historyKeymap)]) });
    },
    report,
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
