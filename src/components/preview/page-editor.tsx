'use client';
import { useActionState, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { formatUtc } from '../../lib/content/dates';
import { BODY_MAX, characterCount, SUMMARY_MAX, TITLE_MAX } from '../../lib/content/field-limits';
import { autosaveDraft, previewDraft, saveDraft } from '../../lib/editor/actions/pages';
import {
  type AutosaveResult,
  type Conflict,
  EDITOR_FORM_ID,
  type EditorFormState,
  type EditorFormValues,
} from '../../lib/editor/forms';
import { HOME_SLUG, MAX_SLUG_LENGTH, previewPath, slugFromTitle } from '../../lib/http/routes';
// The page editor: the form on one side and the page as visitors will see it on the other.
// Nothing typed is lost: the draft autosaves a few seconds after typing stops (checked against
// the version the editor started from, like a manual save), a copy stays in this browser until
// it is saved, leaving with unsaved text warns, and every refusal gives the text back. Without
// JavaScript it is a plain form: Save, Preview (the page beside the form) and, from the banner,
// Publish (what is on screen).
import { IMAGE_ACCEPT, imageMarkdown } from '../../lib/media/media-refs';
import { Article } from '../article';
import { EditorImageUpload } from './editor-image-upload';
import { FieldsDiff } from './word-diff';

const AUTOSAVE_AFTER_MS = 3_000;
const PREVIEW_AFTER_MS = 300;
const TITLE_SHOWN = 60;
const SUMMARY_SHOWN = 160;
const WORDS_PER_MINUTE = 220;

// "Unsaved changes" is not a state of its own: it is "saved" with text that differs since,
// worked out at render so no effect can leave it behind.
type Status =
  | { kind: 'saved'; at: string | null }
  | { kind: 'saving' }
  | { kind: 'failed'; message: string };

const TEXT_FIELDS = ['title', 'slug', 'summary', 'body'] as const;

/** A field's refusal, named by the field's aria-describedby (`<name>-error`). */
function FieldError({ name, message }: { name: string; message: string | undefined }) {
  return message ? (
    <span id={`${name}-error`} className="field-error">
      {message}
    </span>
  ) : null;
}

function tooLongMessage(length: number): string {
  return `Not saved: the body is ${length.toLocaleString('en')} characters, and a page holds at most ${BODY_MAX.toLocaleString('en')}. Shorten it to save; your text stays here.`;
}

function sameText(a: EditorFormValues, b: EditorFormValues): boolean {
  return TEXT_FIELDS.every((field) => a[field] === b[field]);
}

function backupKey(values: EditorFormValues): string {
  return `folio:unsaved:${values.pageId || 'new'}`;
}

type Backup = { values: EditorFormValues; at: string };

function readBackup(key: string): Backup | null {
  try {
    const raw = window.localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as Backup) : null;
  } catch {
    return null;
  }
}

/** Markdown a toolbar button puts around (or before) the selection. */
type Wrap = { before: string; after: string; placeholder: string; line?: boolean };
const TOOLBAR: { label: string; title: string; wrap: Wrap }[] = [
  { label: 'B', title: 'Bold', wrap: { before: '**', after: '**', placeholder: 'bold text' } },
  { label: 'I', title: 'Italic', wrap: { before: '_', after: '_', placeholder: 'italic text' } },
  {
    label: 'Link',
    title: 'Link',
    wrap: { before: '[', after: '](https://)', placeholder: 'link text' },
  },
  {
    label: 'H2',
    title: 'Heading',
    wrap: { before: '## ', after: '', placeholder: 'Heading', line: true },
  },
  {
    label: '• List',
    title: 'List',
    wrap: { before: '- ', after: '', placeholder: 'item', line: true },
  },
  { label: '</>', title: 'Code', wrap: { before: '`', after: '`', placeholder: 'code' } },
];

/** An image the editor can insert (from the media library). */
export type LibraryImage = { hash: string; alt: string; thumbnail: string };

export function PageEditor({
  initial,
  initialHtml,
  savedAt,
  images,
  maxUploadMb,
}: {
  /** The media library's newest images, for the toolbar's Image menu. */
  images: readonly LibraryImage[];
  /** The largest image an editor may upload (MEDIA_MAX_MB). */
  maxUploadMb: number;
  initial: EditorFormValues;
  /** The body as visitors would see it now, for the preview pane's first paint. */
  initialHtml: string;
  /** When the text in `initial` was saved (null for a new page). */
  savedAt: string | null;
}) {
  // When the server last had this page's text (for the status line after a refused submit).
  const lastSavedAt = useRef(savedAt);
  lastSavedAt.current = savedAt;
  const [formState, formAction, pending] = useActionState<EditorFormState, FormData>(saveDraft, {});
  // A form posted without JavaScript comes back rendered on the server with the action's
  // answer as `formState`: the first render must show it (effects never run there), or the
  // typed text, the refusal and the Preview would all be lost on the way back.
  const [values, setValues] = useState<EditorFormValues>(formState?.values ?? initial);
  const [saved, setSaved] = useState<EditorFormValues>(initial);
  const [status, setStatus] = useState<Status>(
    formState?.message
      ? { kind: 'failed', message: formState.message }
      : formState?.fieldErrors
        ? { kind: 'failed', message: 'Not saved: see the fields marked below.' }
        : { kind: 'saved', at: savedAt },
  );
  const [conflict, setConflict] = useState<Conflict | undefined>(formState?.conflict);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string> | undefined>(
    formState?.fieldErrors,
  );
  const [previewHtml, setPreviewHtml] = useState(formState?.previewHtml ?? initialHtml);
  const [enhanced, setEnhanced] = useState(false);
  const [slugTouched, setSlugTouched] = useState(initial.pageId !== '');
  const [backup, setBackup] = useState<Backup | null>(null);
  // Off while another version waits for the editor's choice (Keep mine / Take theirs) or the
  // session has ended: a save now would overwrite what the editor has not seen.
  const autosaveOff = useRef(Boolean(formState?.conflict));
  const body = useRef<HTMLTextAreaElement>(null);
  // An image dropped, pasted or picked, waiting for its alt text, and where it goes.
  const [pendingImage, setPendingImage] = useState<{ file: File; others: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  // Whether the editor has been in the text box: until then an image goes at the end, not
  // at the top where an untouched caret sits.
  const caretPlaced = useRef(false);
  const form = useRef<HTMLFormElement>(null);
  const dirty = !sameText(values, saved);

  // What a submit without JavaScript (or with it) came back with: the form shows it. A save
  // that succeeded redirected instead, and React leaves no state behind (undefined).
  useEffect(() => {
    if (!formState) return;
    if (formState.values) setValues(formState.values);
    setConflict(formState.conflict);
    // A Save or Publish refused because the page changed meanwhile: autosave waits too, as it
    // does after its own conflict (a stale tab's autosave overwrote the other tab's draft).
    if (formState.conflict) autosaveOff.current = true;
    setFieldErrors(formState.fieldErrors);
    if (formState.previewHtml !== undefined) setPreviewHtml(formState.previewHtml);
    if (formState.message) setStatus({ kind: 'failed', message: formState.message });
    else if (formState.fieldErrors)
      setStatus({ kind: 'failed', message: 'Not saved: see the fields marked below.' });
    else
      setStatus((current) =>
        current.kind === 'saving' ? { kind: 'saved', at: lastSavedAt.current } : current,
      );
  }, [formState]);

  // A save of ours came back as a new render of this page (the redirect after Save, or the
  // banner following an autosave): the editor stays mounted, so it adopts the saved version
  // — or the next save would conflict with itself — and keeps whatever was typed meanwhile.
  const server = useRef(initial);
  server.current = initial;
  const adopted = useRef(`${initial.pageId}:${initial.version}`);
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs when the saved version moves and reads the latest props through the ref
  useEffect(() => {
    const now = server.current;
    // Not on mount: a refusal shown at first render (no JavaScript) stays until acted on.
    if (adopted.current === `${now.pageId}:${now.version}`) return;
    adopted.current = `${now.pageId}:${now.version}`;
    setSaved(now);
    setValues((current) =>
      sameText(current, now)
        ? now
        : { ...current, pageId: now.pageId, version: now.version, originalSlug: now.originalSlug },
    );
    setConflict(undefined);
    autosaveOff.current = false;
    setStatus({ kind: 'saved', at: savedAt });
  }, [initial.pageId, initial.version, savedAt]);

  // After hydration: the toolbar, live preview and autosave take over from the buttons. A copy
  // this browser kept from an earlier visit is offered once per page — not on every re-render
  // of the route (an upload re-renders it while the text being typed is, rightly, unsaved).
  const backupOffered = useRef<string | null>(null);
  useEffect(() => {
    setEnhanced(true);
    const key = backupKey(initial);
    if (backupOffered.current === key) return;
    backupOffered.current = key;
    const found = readBackup(key);
    if (found && !sameText(found.values, initial) && (!savedAt || found.at > savedAt))
      setBackup(found);
  }, [initial, savedAt]);

  // A copy of unsaved text stays in this browser until the server has it.
  useEffect(() => {
    if (!enhanced) return;
    const key = backupKey(values);
    if (dirty)
      try {
        window.localStorage.setItem(key, JSON.stringify({ values, at: new Date().toISOString() }));
      } catch {
        // Over the browser's storage quota (a body of megabytes): the text stays in the form.
      }
    else window.localStorage.removeItem(key);
  }, [values, dirty, enhanced]);

  const update = (field: keyof EditorFormValues, value: string) =>
    setValues((current) => {
      const next = { ...current, [field]: value };
      if (field === 'title' && !slugTouched) next.slug = slugFromTitle(value);
      return next;
    });

  const autosave = useCallback(async () => {
    if (autosaveOff.current) return;
    if (characterCount(values.body) > BODY_MAX) {
      setStatus({ kind: 'failed', message: tooLongMessage(characterCount(values.body)) });
      return;
    }
    // A new page is created once it has a title and some text: the title is settled by then.
    if (values.pageId === '' && (!values.title.trim() || !values.body.trim() || !values.slug))
      return;
    const sent = values;
    setStatus({ kind: 'saving' });
    let result: AutosaveResult;
    try {
      result = await autosaveDraft(sent);
    } catch {
      setStatus({
        kind: 'failed',
        message: 'Not saved: Folio could not be reached. Your text is kept here.',
      });
      return;
    }
    if (result.ok) {
      // Only the page's identity moves on: whatever was typed meanwhile stays.
      setValues((current) => ({
        ...current,
        version: String(result.version),
        pageId: String(result.pageId),
        originalSlug: sent.pageId === '' ? result.slug : current.originalSlug,
      }));
      setSaved({ ...sent, version: String(result.version), pageId: String(result.pageId) });
      setStatus({ kind: 'saved', at: result.savedAt });
      setFieldErrors(undefined);
      if (sent.pageId === '') {
        window.localStorage.removeItem(backupKey(sent));
        window.history.replaceState(null, '', `${previewPath(result.slug)}?edit`);
      }
      return;
    }
    setFieldErrors(result.fieldErrors);
    if (result.conflict || result.signedOut) {
      // Someone else's version (or no session): autosave waits for the editor to decide.
      autosaveOff.current = true;
      setConflict(result.conflict);
    }
    setStatus({ kind: 'failed', message: result.message });
  }, [values]);

  // Autosave a few seconds after typing stops.
  useEffect(() => {
    if (!enhanced || !dirty || pending || autosaveOff.current) return;
    const timer = setTimeout(autosave, AUTOSAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [enhanced, dirty, pending, autosave]);

  // The preview beside the form, rendered by the server as visitors will get it.
  const previewRequest = useRef(0);
  useEffect(() => {
    if (!enhanced) return;
    const request = ++previewRequest.current;
    const timer = setTimeout(async () => {
      try {
        const answer = await previewDraft({ body: values.body.slice(0, BODY_MAX) });
        if (request === previewRequest.current && 'html' in answer) setPreviewHtml(answer.html);
      } catch {
        // The pane keeps the last preview; the status line speaks about saving.
      }
    }, PREVIEW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [enhanced, values.body]);

  // Leaving with unsaved text: the browser asks (reload, close), and so do links in the page.
  useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    const click = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (
        !(link instanceof HTMLAnchorElement) ||
        link.target === '_blank' ||
        link.hasAttribute('download')
      )
        return;
      const url = new URL(link.href, window.location.href);
      if (
        url.origin !== window.location.origin ||
        (url.pathname === window.location.pathname && url.hash)
      )
        return;
      if (!window.confirm('You have unsaved changes on this page. Leave without saving them?')) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
    };
  }, [dirty]);

  // Ctrl+S / Cmd+S saves (a rename too) instead of saving the page's HTML to disk.
  useEffect(() => {
    const keydown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        const button = form.current?.querySelector<HTMLButtonElement>('button[value="save"]');
        if (button) form.current?.requestSubmit(button);
      }
    };
    window.addEventListener('keydown', keydown);
    return () => window.removeEventListener('keydown', keydown);
  }, []);

  /** Holds an image for its alt text (another file in its place keeps what was typed). */
  const offerImage = useCallback((file: File, others = 0) => {
    setPendingImage({ file, others });
  }, []);

  // Images dropped anywhere on the editor's page go to the upload panel: a file let go beside
  // the text box must not replace the page (and whatever was typed) with the file itself.
  useEffect(() => {
    if (!enhanced) return;
    const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    };
    const leave = (event: DragEvent) => {
      // Off the window altogether (moving between elements names the next one).
      if (event.relatedTarget === null) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      const files = event.dataTransfer?.files;
      const file = files?.[0];
      if (file) offerImage(file, (files?.length ?? 1) - 1);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [enhanced, offerImage]);

  /**
   * Puts an uploaded image's Markdown in the body as a paragraph of its own, after the line the
   * caret is on when it arrives (the editor may have typed elsewhere meanwhile: never inside a
   * word), or at the end when the editor has not been in the text box.
   */
  const insertImage = (markdown: string) => {
    const area = body.current;
    const caret = area && caretPlaced.current ? area.selectionEnd : Number.POSITIVE_INFINITY;
    let end = 0;
    setValues((current) => {
      const text = current.body;
      let at = Math.min(caret, text.length);
      if (at > 0 && text[at - 1] !== '\n') {
        const lineEnd = text.indexOf('\n', at);
        at = lineEnd === -1 ? text.length : lineEnd;
      }
      const before = text.slice(0, at);
      const after = text.slice(at);
      const lead =
        before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
      const trail =
        after === ''
          ? '\n'
          : after.startsWith('\n\n')
            ? ''
            : after.startsWith('\n')
              ? '\n'
              : '\n\n';
      end = before.length + lead.length + markdown.length;
      return { ...current, body: `${before}${lead}${markdown}${trail}${after}` };
    });
    requestAnimationFrame(() => {
      body.current?.focus();
      body.current?.setSelectionRange(end, end);
    });
  };

  const applyWrap = (wrap: Wrap) => {
    const area = body.current;
    if (!area) return;
    const { selectionStart: start, selectionEnd: end, value } = area;
    const selected = value.slice(start, end) || wrap.placeholder;
    const lineStart = wrap.line ? value.lastIndexOf('\n', start - 1) + 1 : start;
    const before = wrap.line ? value.slice(0, lineStart) : value.slice(0, start);
    const inserted = wrap.line
      ? `${wrap.before}${value.slice(lineStart, end) || wrap.placeholder}`
      : `${wrap.before}${selected}${wrap.after}`;
    const next = `${before}${inserted}${value.slice(end)}`;
    update('body', next);
    requestAnimationFrame(() => {
      area.focus();
      const caret = before.length + inserted.length - wrap.after.length;
      area.setSelectionRange(
        caret - (value.slice(start, end) ? 0 : wrap.placeholder.length),
        caret,
      );
    });
  };

  const words = useMemo(
    () => values.body.trim().split(/\s+/).filter(Boolean).length,
    [values.body],
  );
  const minutes = Math.max(1, Math.round(words / WORDS_PER_MINUTE));
  const errorOf = (name: string) => fieldErrors?.[name];
  const invalid = (name: string) =>
    errorOf(name) ? { 'aria-invalid': true, 'aria-describedby': `${name}-error` } : {};
  const isNew = values.pageId === '';

  return (
    <div className="editor-layout">
      <form
        id={EDITOR_FORM_ID}
        ref={form}
        action={formAction}
        className="editor"
        onSubmit={(event) => {
          // Never send what cannot be saved: the request would be refused, the text with it.
          if (characterCount(values.body) > BODY_MAX) {
            event.preventDefault();
            setStatus({ kind: 'failed', message: tooLongMessage(characterCount(values.body)) });
            return;
          }
          setStatus({ kind: 'saving' });
        }}
      >
        {status.kind === 'failed' ? (
          // A refusal is said at once (an alert); saving and saved are polite news.
          <p className="editor-status failed" role="alert">
            {status.message}
          </p>
        ) : (
          <p className="editor-status" role="status" aria-live="polite">
            {status.kind === 'saving'
              ? 'Saving…'
              : dirty
                ? 'Unsaved changes'
                : status.at
                  ? `Saved ${formatUtc(status.at)}`
                  : 'Not saved yet'}
          </p>
        )}
        {backup ? (
          <div className="notice-box" role="alert">
            Text you typed on {formatUtc(backup.at)} was not saved; this browser kept it.{' '}
            <button
              type="button"
              onClick={() => {
                setValues((current) => ({
                  ...backup.values,
                  pageId: current.pageId,
                  version: current.version,
                  originalSlug: current.originalSlug,
                }));
                setBackup(null);
              }}
            >
              Put it back
            </button>{' '}
            <button
              type="button"
              onClick={() => {
                window.localStorage.removeItem(backupKey(initial));
                setBackup(null);
              }}
            >
              Discard it
            </button>
          </div>
        ) : null}
        {conflict ? (
          <section className="conflict" aria-label="Saved meanwhile">
            <h2>
              Saved meanwhile{conflict.savedBy ? ` by ${conflict.savedBy}` : ''} at{' '}
              {formatUtc(conflict.savedAt)}
            </h2>
            <FieldsDiff
              before={conflict}
              after={values}
              beforeLabel="their version"
              afterLabel="yours (in the form)"
            />
            <p className="conflict-actions">
              <button
                type="submit"
                name="intent"
                value="save"
                className="primary"
                onClick={() => {
                  autosaveOff.current = false;
                }}
              >
                Keep mine
              </button>{' '}
              <button
                type="submit"
                name="intent"
                value="take-theirs"
                onClick={(event) => {
                  if (!enhanced) return;
                  // With JavaScript: their text into the form at once, nothing sent.
                  event.preventDefault();
                  const theirs = {
                    ...values,
                    title: conflict.title,
                    summary: conflict.summary,
                    body: conflict.body,
                    version: String(conflict.version),
                  };
                  setValues(theirs);
                  setSaved(theirs);
                  setConflict(undefined);
                  autosaveOff.current = false;
                  setStatus({ kind: 'saved', at: conflict.savedAt });
                }}
              >
                Take theirs
              </button>
            </p>
          </section>
        ) : null}
        <input type="hidden" name="originalSlug" value={values.originalSlug} />
        <input type="hidden" name="pageId" value={values.pageId} />
        <input
          type="hidden"
          name="version"
          value={conflict ? String(conflict.version) : values.version}
        />
        <label>
          Title
          <input
            name="title"
            value={values.title}
            onChange={(event) => update('title', event.target.value)}
            required
            maxLength={TITLE_MAX}
            {...invalid('title')}
          />
          <span className="hint">
            {characterCount(values.title)}/{TITLE_SHOWN}: search results show about {TITLE_SHOWN}{' '}
            characters.
          </span>
          <FieldError name="title" message={errorOf('title')} />
        </label>
        <label>
          Slug
          <input
            name="slug"
            value={values.slug}
            onChange={(event) => {
              setSlugTouched(true);
              update('slug', event.target.value);
            }}
            required
            maxLength={MAX_SLUG_LENGTH}
            pattern="[a-z0-9]+(-[a-z0-9]+)*"
            readOnly={values.originalSlug === HOME_SLUG}
            {...invalid('slug')}
          />
          <FieldError name="slug" message={errorOf('slug')} />
          <span className="hint">
            {isNew
              ? 'Filled from the title until you change it.'
              : values.originalSlug === HOME_SLUG
                ? 'The home page keeps its address.'
                : 'Changing it renames the page when you save; the old address will redirect.'}
          </span>
        </label>
        <label>
          Summary
          <textarea
            name="summary"
            value={values.summary}
            onChange={(event) => update('summary', event.target.value)}
            rows={2}
            maxLength={SUMMARY_MAX}
            {...invalid('summary')}
          />
          <span className="hint">
            {characterCount(values.summary)}/{SUMMARY_SHOWN}: search results show about{' '}
            {SUMMARY_SHOWN}.
          </span>
          <FieldError name="summary" message={errorOf('summary')} />
        </label>
        <div className="body-field">
          <label htmlFor="editor-body">Body (Markdown)</label>
          {enhanced ? (
            <div className="toolbar" role="toolbar" aria-label="Formatting">
              {TOOLBAR.map(({ label, title, wrap }) => (
                <button
                  key={title}
                  type="button"
                  title={title}
                  aria-label={title}
                  onClick={() => applyWrap(wrap)}
                >
                  {label}
                </button>
              ))}
              <details className="image-menu">
                <summary title="Insert an image from the media library">Image</summary>
                <div className="image-choices">
                  {images.length === 0 ? <p>No images yet.</p> : null}
                  {images.map((image) => (
                    <button
                      key={image.hash}
                      type="button"
                      title={image.alt}
                      aria-label={`Insert ${image.alt}`}
                      onClick={(event) => {
                        event.currentTarget.closest('details')?.removeAttribute('open');
                        applyWrap({
                          before: `\n${imageMarkdown(image.hash, image.alt)}\n`,
                          after: '',
                          placeholder: '',
                        });
                      }}
                    >
                      <img src={image.thumbnail} alt="" width={96} height={72} loading="lazy" />
                    </button>
                  ))}
                  <label className="image-pick">
                    Upload from this computer…
                    <input
                      type="file"
                      accept={IMAGE_ACCEPT}
                      className="visually-hidden"
                      onChange={(event) => {
                        const file = event.currentTarget.files?.[0];
                        event.currentTarget.value = '';
                        event.currentTarget.closest('details')?.removeAttribute('open');
                        if (file) offerImage(file);
                      }}
                    />
                  </label>
                  <a href="/preview?media" target="_blank" rel="noreferrer">
                    Media library
                  </a>
                </div>
              </details>
              <a href="/preview/writing-in-markdown" target="_blank" rel="noreferrer">
                Markdown guide
              </a>
            </div>
          ) : (
            <p className="toolbar-links">
              <a href="/preview/writing-in-markdown">Markdown guide</a>{' '}
              <a href="/preview?media">Media library</a> (upload an image there, then paste its
              Markdown here)
            </p>
          )}
          {pendingImage ? (
            <EditorImageUpload
              file={pendingImage.file}
              others={pendingImage.others}
              maxMb={maxUploadMb}
              onCancel={() => {
                setPendingImage(null);
                body.current?.focus();
              }}
              onUploaded={(markdown) => {
                insertImage(markdown);
                setPendingImage(null);
              }}
            />
          ) : null}
          <textarea
            id="editor-body"
            ref={body}
            name="body"
            value={values.body}
            onChange={(event) => update('body', event.target.value)}
            onFocus={() => {
              caretPlaced.current = true;
            }}
            onPaste={(event) => {
              // A copied screenshot or image: uploaded like a dropped one. Text copied from a
              // word processor comes with a picture of itself: the text is what was meant.
              const file = [...event.clipboardData.files].find((f) => f.type.startsWith('image/'));
              if (!file || event.clipboardData.getData('text/plain').trim() !== '') return;
              event.preventDefault();
              offerImage(file);
            }}
            className={dragging ? 'drop-target' : undefined}
            rows={20}
            {...invalid('body')}
          />
          <span className="hint">
            {words} {words === 1 ? 'word' : 'words'}, about {minutes} min to read
            {enhanced ? '. Drop or paste an image to upload it.' : ''}
          </span>
          <FieldError name="body" message={errorOf('body')} />
        </div>
        <p className="editor-buttons">
          <button type="submit" name="intent" value="save" disabled={pending}>
            {pending ? 'Saving…' : isNew ? 'Create draft' : 'Save draft'}
          </button>
          {enhanced ? null : (
            <button type="submit" name="intent" value="preview">
              Preview
            </button>
          )}
        </p>
      </form>
      <section className="live-preview" aria-label="Preview as visitors will see it">
        <p className="live-preview-label">
          As visitors will see it{enhanced ? ' (updates as you type)' : ''}
        </p>
        <Article
          page={{
            title: values.title || 'Untitled',
            summary: values.summary,
            bodyHtml: previewHtml,
          }}
        />
      </section>
    </div>
  );
}
