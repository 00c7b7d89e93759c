'use client';
// The page editor: the form on one side and the page as visitors will see it on the other —
// on a phone, Write and Preview as two tabs above the text (editor/editor-tabs.tsx).
// Nothing typed is lost: the draft autosaves a few seconds after typing stops (checked against
// the version the editor started from, like a manual save), a copy stays in this browser until
// it is saved, leaving with unsaved text warns, and every refusal gives the text back. Without
// JavaScript it is a plain form: Save, Preview (the page beside the form) and, from the banner,
// Publish (what is on screen).
// This file composes it; each concern is a hook or a part in editor/ (state, autosave, draft
// recovery, live preview, the unsaved prompt, Ctrl+S, dropped images, toolbar, status line).
import { useActionState, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BODY_MAX, characterCount, SUMMARY_MAX, TITLE_MAX } from '../../lib/content/field-limits';
import { rerenderEditor, saveDraft } from '../../lib/editor/actions/pages';
import {
  EDITOR_FORM_ID,
  type EditorFormState,
  type EditorFormValues,
} from '../../lib/editor/forms';
import { HOME_SLUG, MAX_SLUG_LENGTH, previewPath } from '../../lib/http/routes';
import { Article } from '../article';
import { BackupNotice } from './editor/backup-notice';
import type { BodyEditor as CodeMirrorEditor } from './editor/body-codemirror';
import { BodyEditor } from './editor/body-editor';
import { ConflictPanel } from './editor/conflict-panel';
import { DraftNoticeBox } from './editor/draft-notice';
import { EditorStatus } from './editor/editor-status';
import {
  EditorTabs,
  type EditorView,
  panelProps,
  TABBED_WIDTH,
  useMediaQuery,
} from './editor/editor-tabs';
import { isTextField, tooLongMessage } from './editor/editor-text';
import { EditorToolbar, type LibraryImage } from './editor/editor-toolbar';
import { FieldError } from './editor/field-error';
import { LinkDialog } from './editor/link-dialog';
import { liveBylineOf } from './editor/live-byline';
import { LivePaneFrame } from './editor/live-pane-frame';
import { liveUserOf, movedMessage, SOMEONE_ELSE } from './editor/live-presence';
import { LivePreviewBody } from './editor/live-preview-body';
import { MergedNoteText } from './editor/merged-note';
import type { InStep } from './editor/put-back';
import { useAutosave } from './editor/use-autosave';
import { useBodyText } from './editor/use-body-text';
import { useDraftRecovery } from './editor/use-draft-recovery';
import { useEditorState } from './editor/use-editor-state';
import { useImageDrop } from './editor/use-image-drop';
import { useLiveDocument } from './editor/use-live-document';
import { useLiveFields } from './editor/use-live-fields';
import { useLivePreview } from './editor/use-live-preview';
import { useSaveShortcut } from './editor/use-save-shortcut';
import { useUnsavedPrompt } from './editor/use-unsaved-prompt';
import { WhoIsHere } from './editor/who-is-here';
import { EditorImageUpload } from './editor-image-upload';
import { SeoSection, type SharingContext } from './seo-section';

const TITLE_SHOWN = 60;
const SUMMARY_SHOWN = 160;
const WORDS_PER_MINUTE = 220;
/** How long a save waits for this tab's changes to the shared document to be stored. */
const ACK_WAIT_MS = 10_000;

export type { LibraryImage };

export function PageEditor({
  initial,
  initialHtml,
  savedAt,
  images,
  maxUploadMb,
  topicNames = [],
  authorChoices = [],
  sharing,
  me,
}: {
  /** The signed-in person, as the others editing the page see them (none: no co-editing). */
  me?: { email: string; name: string | null };
  /** What the Search and sharing section's previews need (none: the section is not shown). */
  sharing?: SharingContext;
  /** The site's authors (the first AUTHORS_LISTED_MAX by name), for the Authors checkboxes. */
  authorChoices?: readonly { id: number; slug: string; name: string }[];
  /** Every topic's name, offered as the Topics field is typed (a <datalist>). */
  topicNames?: readonly string[];
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
  const [formState, formAction, pending] = useActionState<EditorFormState, FormData>(saveDraft, {});
  // After hydration the toolbar, live preview and autosave take over from the buttons.
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  // The body's CodeMirror editor, once loaded (body-editor.tsx), and the shared document it is
  // bound to after its first sync (an existing page, with JavaScript and a WebSocket).
  const codeMirror = useRef<CodeMirrorEditor | null>(null);
  const [editorReady, setEditorReady] = useState(false);
  // The person this editor was opened by. A re-render after someone else signed in in this
  // browser brings their `me`: the editor stays the first person's (stopped, as someoneElse),
  // never their typing rebound to the other (the document made again for the new person took
  // the form's text in as theirs: hostile pass, 2026-11-27).
  const opener = useRef(me);
  if (!opener.current && me) opener.current = me;
  const personChanged = me !== undefined && opener.current?.email !== me.email;
  const person = opener.current;
  // A new object each render: the live hook keys on its contents.
  const liveUser = person ? liveUserOf(person) : null;
  const live = useLiveDocument({
    slug: initial.originalSlug,
    user: liveUser,
    enabled: enhanced && initial.pageId !== '',
    editor: codeMirror,
    editorReady,
    initialBody: initial.body,
  });
  const liveBody = live.bodySource === 'document';
  const editor = useEditorState({
    initial,
    savedAt,
    formState,
    liveBody,
    livePending: live.state.pending,
  });
  const { values, setValues, setSaved, status, setStatus, conflict, setConflict } = editor;
  const { fieldErrors, autosaveOff, dirty, update } = editor;
  // Title and summary are the document's too once bound (use-live-fields.ts).
  const titleInput = useRef<HTMLInputElement>(null);
  const summaryInput = useRef<HTMLTextAreaElement>(null);
  const fields = useLiveFields({
    document: live.document,
    bound: live.bound,
    initial: live.reopenedFrom ?? initial,
    values,
    update,
    inputs: { title: titleInput, summary: summaryInput },
  });
  // The text the server has stored from this tab (live-document.ts's shadow): a backup's
  // unsent typing is what it has beyond this, and only that is merged back (put-back.ts). Read
  // at every change, not only when everything is stored: under steady typing that moment
  // seldom came, and typing stored since was put back a second time. Set before the backup is
  // written in the same render (effects run in order); between two documents (one made again)
  // it stays the old one's, which the text on screen was typed on.
  const inStep = useRef<InStep | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again at every change of the text
  useEffect(() => {
    if (live.bound && live.document) inStep.current = live.document.acknowledgedTexts();
  }, [live.bound, live.document, values]);
  const recovery = useDraftRecovery({
    initial,
    savedAt,
    values,
    setValues,
    inStep,
    // Live, the body is kept here too while changes typed in this tab are not stored yet.
    dirty: dirty || (liveBody && live.state.pending > 0),
    enhanced,
    liveBound: live.bound,
    putBackAtOnce: live.bound && !live.state.copyBrought,
    person: person?.email ?? '',
  });
  // Nothing more is saved from this tab: another person's session (someoneElse), or the page
  // found renamed (moved: the typing goes to the new address in this browser's copy).
  const stoppedHere =
    personChanged || live.state.phase === 'someoneElse' || live.state.phase === 'moved';
  // Held, too, while a document made again is being opened: sent from the form then, the text
  // would be merged against the last draft this tab saw, the others' typing in it twice.
  useAutosave(editor, {
    enhanced,
    pending,
    person: person?.email ?? '',
    stopped: stoppedHere || live.reopening,
  });
  const preview = useLivePreview({ initialHtml, formState, body: values.body, enhanced });
  useBannerAfterLiveDrafts(liveBody && !personChanged, live.state);
  useUnsavedPrompt(editor.unsaved);
  const form = useRef<HTMLFormElement>(null);
  useSaveShortcut(form);
  // Where the columns stack, Write and Preview are tabs (after hydration only).
  const tabbed = useMediaQuery(TABBED_WIDTH, enhanced);
  const [view, setView] = useState<EditorView>('write');
  // The tabs coming back (a window narrowed, a tablet turned upright) show Write: the Preview
  // chosen before would hide the text being typed, and the keys typed next went nowhere
  // (hostile pass).
  useEffect(() => {
    if (tabbed) setView('write');
  }, [tabbed]);
  // What needs an answer is in the form: a conflict shows Write (the status line is there).
  useEffect(() => {
    if (conflict) setView('write');
  }, [conflict]);

  // An image dropped, pasted or picked, waiting for its alt text, and where it goes.
  const [pendingImage, setPendingImage] = useState<{ file: File; others: number } | null>(null);
  /** Holds an image for its alt text (another file in its place keeps what was typed). */
  const offerImage = useCallback((file: File, others = 0) => {
    setPendingImage({ file, others });
    // Its alt text is asked in the form: an image dropped on the Preview tab shows Write.
    setView('write');
  }, []);
  const dragging = useImageDrop(enhanced, offerImage);
  const text = useBodyText(update, codeMirror);
  // A submit waiting for this tab's changes to the document to be stored, then sent again.
  const acknowledged = useRef(false);
  const { insertImage, applyWrap } = text;
  // The link dialog, and the text it will link (read when it opens).
  const [linking, setLinking] = useState<string | null>(null);

  const words = useMemo(
    () => values.body.trim().split(/\s+/).filter(Boolean).length,
    [values.body],
  );
  const minutes = Math.max(1, Math.round(words / WORDS_PER_MINUTE));
  const errorOf = (name: string) => fieldErrors?.[name];
  const invalid = (name: string) =>
    errorOf(name) ? { 'aria-invalid': true, 'aria-describedby': `${name}-error` } : {};
  const isNew = values.pageId === '';
  // The live preview's HTML where its first image is (the share card's automatic image).
  const previewHtml = useMemo(
    () =>
      preview.kind === 'html'
        ? preview.html
        : (preview.ids
            .map((id) => preview.html.get(id) ?? '')
            .find((html) => html.includes('<img')) ?? ''),
    [preview],
  );

  return (
    <div className="editor-layout" data-tabbed={tabbed || undefined}>
      {tabbed ? <EditorTabs shown={view} onShow={setView} /> : null}
      {/* Always this wrapper, tabbed or not: the form (and the body editor in it) never remounts
          when the tabs come or go, so nothing typed, selected or undoable is lost. */}
      <div className="editor-write" {...panelProps('write', tabbed, view)}>
        <form
          id={EDITOR_FORM_ID}
          ref={form}
          action={formAction}
          className="editor"
          onChange={(event) => {
            const { name } = event.target as unknown as HTMLInputElement;
            if (name && !isTextField(name)) editor.setFieldsChanged(true);
          }}
          onSubmit={(event) => {
            const phase = personChanged ? 'someoneElse' : live.document?.state.phase;
            if (phase === 'someoneElse' || phase === 'moved') {
              event.preventDefault();
              setStatus({
                kind: 'failed',
                message:
                  phase === 'moved'
                    ? movedMessage(live.document?.state.reason ?? '')
                    : SOMEONE_ELSE,
              });
              return;
            }
            // Never send what cannot be saved: the request would be refused, the text with it.
            if (characterCount(values.body) > BODY_MAX) {
              event.preventDefault();
              setStatus({ kind: 'failed', message: tooLongMessage(characterCount(values.body)) });
              return;
            }
            // Live, the server saves (or publishes) the document as stored: every change typed
            // here must be stored first, or the last words would be left out.
            // And a save while the document made again is being opened waits for it to be.
            if (!acknowledged.current && ((liveBody && live.state.pending > 0) || live.reopening)) {
              event.preventDefault();
              const submitter = (event.nativeEvent as SubmitEvent).submitter;
              const owner = event.currentTarget;
              setStatus({ kind: 'saving' });
              void live.whenAcknowledged(ACK_WAIT_MS).then((stored) => {
                if (!stored) {
                  setStatus({
                    kind: 'failed',
                    message:
                      live.document?.state.phase === 'paused'
                        ? 'Not saved: you are signed out, or may no longer edit this page. Your text is kept in this tab: sign in again in another tab, then Save draft here.'
                        : 'Not saved yet: the server has not confirmed your last changes. They are kept here and sent when the connection is back; try again then.',
                  });
                  return;
                }
                acknowledged.current = true;
                try {
                  owner.requestSubmit(submitter ?? undefined);
                } finally {
                  acknowledged.current = false;
                }
              });
              return;
            }
            setStatus({ kind: 'saving' });
            editor.setFieldsChanged(false);
          }}
        >
          <EditorStatus
            // Live, the document keeps back a text longer than a page may be (live-document.ts):
            // said as the autosave says it, until it is short enough again.
            status={
              liveBody && values.body.length > BODY_MAX
                ? { kind: 'failed', message: tooLongMessage(characterCount(values.body)) }
                : status
            }
            dirty={editor.unsaved}
            live={live.bound ? live.state : undefined}
          />
          {live.bound ? (
            <WhoIsHere others={live.others} synced={live.state.phase === 'synced'} />
          ) : null}
          {live.bound && live.state.phase === 'moved' ? (
            <p className="notice-box">
              <a href={`${previewPath(live.state.reason ?? '')}?edit`}>
                Open the page at its new address
              </a>
            </p>
          ) : null}
          {live.bound && live.state.notice ? (
            <DraftNoticeBox
              notice={live.state.notice}
              me={liveUser?.key ?? null}
              slug={values.originalSlug}
              onDismiss={() => live.document?.dismissNotice()}
            />
          ) : null}
          {editor.mergedNote ? (
            <p className="notice-box" role="status">
              <MergedNoteText note={editor.mergedNote} />
            </p>
          ) : null}
          {/* Offered once the editor shows the shared document, or will not (live.settling). */}
          {recovery.backup && !live.settling ? (
            <BackupNotice
              backup={recovery.backup}
              onPutBack={recovery.putBack}
              onDiscard={recovery.discard}
            />
          ) : null}
          {conflict ? (
            <ConflictPanel
              conflict={conflict}
              values={values}
              onKeepMine={() => {
                autosaveOff.current = false;
              }}
              onTakeTheirs={(event) => {
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
                // Live, the body is the document's: only their other fields are taken.
                setValues(editor.bodyIsLive.current ? { ...theirs, body: values.body } : theirs);
                setSaved(theirs);
                setConflict(undefined);
                autosaveOff.current = false;
                setStatus({ kind: 'saved', at: conflict.savedAt });
              }}
            />
          ) : null}
          <input type="hidden" name="originalSlug" value={values.originalSlug} />
          <input type="hidden" name="pageId" value={values.pageId} />
          {/* The version the text started from, also after a conflict: a save merges against it
            (the conflict panel says which version of theirs it has seen). */}
          <input type="hidden" name="version" value={values.version} />
          {/* The title, summary and body are the shared document's: the server takes them from
            there (save-page.ts). */}
          {liveBody ? <input type="hidden" name="live" value="1" /> : null}
          <label>
            Title
            <input
              ref={titleInput}
              name="title"
              value={values.title}
              onChange={(event) => fields.edit('title', event.target.value)}
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
                editor.touchSlug();
                update('slug', event.target.value);
              }}
              // A new page's may be left empty: the title gives it on save (forms.ts), with or
              // without JavaScript, as the hint says.
              required={!isNew}
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
              ref={summaryInput}
              name="summary"
              value={values.summary}
              onChange={(event) => fields.edit('summary', event.target.value)}
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
            <BodyEditor
              value={values.body}
              mergedBody={editor.mergedBody}
              enhanced={enhanced}
              textarea={text.body}
              editor={text.editor}
              invalid={invalid('body')}
              dragging={dragging}
              onReady={setEditorReady}
              hooks={{
                onChange: (next) => update('body', next),
                onWrap: applyWrap,
                onLink: () => setLinking(text.selectedText()),
                onImage: offerImage,
                onFocus: () => {
                  text.caretPlaced.current = true;
                },
              }}
            >
              <EditorToolbar
                enhanced={enhanced}
                images={images}
                onWrap={applyWrap}
                onLink={() => setLinking(text.selectedText())}
                onPickImage={offerImage}
              />
              {pendingImage ? (
                <EditorImageUpload
                  file={pendingImage.file}
                  others={pendingImage.others}
                  maxMb={maxUploadMb}
                  onCancel={() => {
                    setPendingImage(null);
                    text.focus();
                  }}
                  onUploaded={(markdown) => {
                    insertImage(markdown);
                    setPendingImage(null);
                  }}
                />
              ) : null}
            </BodyEditor>
            {enhanced ? (
              <LinkDialog
                open={linking !== null}
                selected={linking ?? ''}
                onInsert={(url, title) => {
                  setLinking(null);
                  text.insertLink(url, title);
                }}
                onClose={() => {
                  setLinking(null);
                  text.focus();
                }}
              />
            ) : null}
            <span className="hint">
              {words} {words === 1 ? 'word' : 'words'}, about {minutes} min to read
              {enhanced ? '. Drop or paste an image to upload it.' : ''}
            </span>
            <FieldError name="body" message={errorOf('body')} />
          </div>
          {/* After the text: on a phone the body starts in the first screen, and a writer
            sets what the page is once, not each time they open it. */}
          <fieldset className="kind-field">
            <legend>This is a</legend>
            {(
              [
                ['post', 'Post', 'dated, listed on the home page, its topics and the feed'],
                ['page', 'Page', 'timeless, like About or Contact'],
              ] as const
            ).map(([kind, label, hint]) => (
              <label key={kind} className="inline-choice">
                <input
                  type="radio"
                  name="kind"
                  value={kind}
                  checked={values.kind === kind}
                  onChange={() => update('kind', kind)}
                  disabled={values.originalSlug === HOME_SLUG}
                />{' '}
                {label} <span className="hint">({hint})</span>
              </label>
            ))}
            {values.originalSlug === HOME_SLUG ? (
              <span className="hint">The home page is a page.</span>
            ) : null}
          </fieldset>
          {values.originalSlug === HOME_SLUG ? (
            // The home page is never a post (page-writes.ts storedPost): fields for topics and
            // authors here were dropped on save without a word (hostile pass 27).
            <p className="hint">The home page is the site’s front: it has no topics or authors.</p>
          ) : (
            <>
              <label>
                Topics
                <input
                  name="topics"
                  value={values.topics}
                  onChange={(event) => update('topics', event.target.value)}
                  list="topic-names"
                  autoComplete="off"
                  {...invalid('topics')}
                />
                <datalist id="topic-names">
                  {topicNames.map((name) => (
                    <option key={name} value={name} />
                  ))}
                </datalist>
                <FieldError name="topics" message={errorOf('topics')} />
                <span className="hint">
                  Comma separated; a new name makes a new topic when you save (Authors and above;
                  Contributors choose among the topics there are). Saved with Save or Publish.
                </span>
              </label>
              <fieldset className="authors-field">
                <legend>Authors</legend>
                {/* Sent always: with nothing ticked, the post names no authors (forms.ts). */}
                <input type="hidden" name="authors" value="" />
                {authorChoices.length === 0 ? (
                  <span className="hint">
                    No authors yet: each editor makes theirs from the link on their email address
                    above.
                  </span>
                ) : null}
                {authorChoices.map((author) => {
                  const ticked = values.authors.split(' ').includes(author.slug);
                  return (
                    <label key={author.id} className="inline-choice">
                      <input
                        type="checkbox"
                        name="authors"
                        value={author.slug}
                        checked={ticked}
                        onChange={() =>
                          update(
                            'authors',
                            (ticked
                              ? values.authors.split(' ').filter((slug) => slug !== author.slug)
                              : [...values.authors.split(' '), author.slug]
                            )
                              .filter((slug) => slug !== '')
                              .join(' '),
                          )
                        }
                      />{' '}
                      {author.name}
                    </label>
                  );
                })}
                <FieldError name="authors" message={errorOf('authors')} />
                <span className="hint">
                  The post’s byline, in this order. Saved with Save or Publish.
                </span>
              </fieldset>
            </>
          )}
          {sharing ? (
            <SeoSection
              values={values}
              update={update}
              errorOf={errorOf}
              sharing={sharing}
              previewHtml={previewHtml}
            />
          ) : null}
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
      </div>
      <section
        className="live-preview"
        aria-label="Preview as visitors will see it"
        {...panelProps('preview', tabbed, view)}
        // Its first content is a line of text: the panel itself takes focus after the tabs.
        tabIndex={tabbed ? 0 : undefined}
      >
        <p className="live-preview-label">
          As visitors will see it{enhanced ? ' (updates as you type)' : ''}
        </p>
        <LivePaneFrame>
          {(dates) => (
            <Article
              page={{
                title: values.title || 'Untitled',
                summary: values.summary,
                bodyHtml: preview.kind === 'html' ? preview.html : '',
              }}
              dates={dates}
              body={<LivePreviewBody content={preview} />}
              {...liveBylineOf(values, authorChoices)}
            />
          )}
        </LivePaneFrame>
      </section>
    </div>
  );
}

/** After typing stops: the server writes the draft a second after the last update. */
const BANNER_AFTER_MS = 2_500;

/**
 * Live, this tab's typing becomes the draft on the server, with no answer here to re-render the
 * banner (the autosave's did): once it has all been stored and the draft written, the page is
 * rendered again, so the banner says "Published, with a newer draft" and offers what applies.
 * Only after this tab changed something: opening the editor re-renders nothing.
 */
function useBannerAfterLiveDrafts(
  live: boolean,
  state: { phase: string; pending: number; ackedAt: string | null },
) {
  const typed = useRef(false);
  // Read when the timer fires: only a tab in step with the server, everything stored, asks
  // (paused, its cookie may be another person's by then, and the page would render as theirs).
  const now = useRef(state);
  now.current = state;
  const { pending, ackedAt } = state;
  useEffect(() => {
    if (pending > 0) typed.current = true;
  }, [pending]);
  useEffect(() => {
    if (!live || !ackedAt || !typed.current) return;
    const timer = setTimeout(() => {
      if (now.current.phase !== 'synced' || now.current.pending > 0) return;
      typed.current = false;
      void rerenderEditor(null).catch(() => undefined);
    }, BANNER_AFTER_MS);
    return () => clearTimeout(timer);
  }, [live, ackedAt]);
}
