import type { MissedSchedule, PageView, Schedule } from '../../lib/content/content';
import type { ReviewRequest } from '../../lib/content/review';
import { discardDraft, publishPage, unpublishPage } from '../../lib/editor/actions/pages';
import { dismissMissedSchedule } from '../../lib/editor/actions/schedules';
import { revokeShareLink } from '../../lib/editor/actions/share-links';
import { PREVIEW_DASHBOARD, previewPath, publicPath } from '../../lib/http/routes';
import type { PreviewLink } from '../../lib/share-links/share-links';
import { ConfirmCommand } from './confirm-command';
import { EditorPublishButton } from './editor-publish-button';
import { LocalTime } from './local-time';
import { ReviewStatus, SubmitForReviewForm, submitApplies } from './review-status';
import { ScheduleForm } from './schedule-form';
import { ShareLinkForm } from './share-link-form';

/** The same in a few words, for the banner's one line on a phone. */
const SHORT_STATE_LABELS: Record<PageView['state'], string> = {
  published: 'Published',
  changed: 'Unpublished changes',
  'draft-only': 'Draft only',
};

/** A page's state in words, for the banner and anything else that names it in full. */
export const STATE_LABELS: Record<PageView['state'], string> = {
  published: 'Published, no unpublished changes',
  changed: 'Published, with a newer draft (shown here)',
  'draft-only': 'Draft only: not published',
};

// A Map, not an object: the notice comes from the query string, and `?notice=constructor`
// must not find Object.prototype's members.
const NOTICES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    saved: 'Draft saved.',
    published: 'Published. Visitors see this version now.',
    'nothing-to-publish':
      'Nothing to publish: visitors already see this text, and it has no newer draft.',
    unpublished: 'Unpublished. Visitors get a 404; the text is kept as a draft.',
    discarded: 'Draft discarded.',
    scheduled:
      'Scheduled. The draft as it is then will be published at that time; edits until then are included.',
    unscheduled: 'Schedule cancelled. Nothing will be published unless you publish it.',
    // fixd (issue 28, finding 1): a save by someone who may not schedule this page.
    'saved-unscheduled':
      'Draft saved. Its scheduled publish is cancelled: a reviewer scheduled the text before your change. It is waiting for review again.',
    'autosaved-unscheduled': 'The scheduled publish was cancelled: it needs review again.',
    'not-scheduled':
      'There was no schedule to cancel: it was published, discarded, taken down or cancelled meanwhile.',
    'missed-dismissed': 'Notice dismissed. Nothing was published; the draft is as it was.',
    'missed-newer':
      'Not dismissed: another scheduled publish did not happen since you opened this page. It is shown now: read it, then dismiss it.',
    'missed-gone':
      'There was nothing to dismiss: the page was published, scheduled again or its draft discarded meanwhile.',
    deleted: 'The draft-only page was deleted.',
    restored:
      'That version is the draft now, in the editor. Visitors still see the published version until you publish it.',
    // Hostile pass 2 (issue 28): a restore by someone who may not schedule the page.
    'restored-unscheduled':
      'That version is the draft now, in the editor. Its scheduled publish is cancelled: a reviewer scheduled the text before your change. It is waiting for review again.',
    stale:
      'Nothing changed: this page was changed since you opened it (by another editor, or in another tab). Review it and try again.',
    'stale-publish':
      'Not published: this page was changed since you opened it (by another editor, in another tab or from the command line), and its state is shown as it is now. Your text is kept as its draft: review it, then publish.',
    replaced:
      'Nothing changed: the form names another page than the one at this address now (the page you opened was deleted or renamed, or the form was altered). The page at this address is shown here.',
    gone: 'Nothing changed: that page was deleted meanwhile.',
    'link-revoked': 'Share link revoked: it no longer opens this draft.',
    'link-gone': 'That share link had already expired or been revoked.',
    'missing-media':
      'Not published: the draft names an image that is not in the media library (deleted, misspelt or never uploaded). Take it out or upload the image again, then publish.',
    'restored-missing-media':
      'That version is the draft now, in the editor. It shows an image deleted from the media library since: take it out or upload the image again before you publish.',
    'redirect-source':
      'Not published: an editor’s redirect sends visitors from this page’s address elsewhere; someone who manages redirects must remove it first. Or give the page another address.',
    refused: 'That could not be done.',
    forbidden:
      'Nothing changed: your role does not allow that on this page. Ask an Editor or an Administrator.',
    busy: 'Folio is busy saving other changes; nothing was changed. Try again in a moment.',
    unavailable:
      'Folio cannot reach its database right now; nothing was changed. Try again in a moment.',
    'signed-out': 'Your session has ended. Sign in again.',
    'review-submitted':
      'Submitted for review. An Editor will publish it or send it back with a note; you can keep editing meanwhile.',
    'review-already': 'This draft is already waiting for review as it is.',
    'review-nothing':
      'Not submitted: visitors already see this text, and it has no newer draft to review.',
    'sent-back': 'Sent back. The writer sees your note in their page’s banner.',
  }),
);

/** What visitors see meanwhile, said after a save: it depends on the page's state. */
const AFTER_SAVE: Record<PageView['state'], string> = {
  published: ' Visitors see the published version, which is the same.',
  changed: ' Visitors still see the published version until you publish this draft.',
  'draft-only': ' Visitors see nothing until you publish it.',
};

/** The words for a `?notice=` value (null for anything unknown), for a page in `state`. */
export function noticeText(notice: string | null, state?: PageView['state']): string | null {
  const text = notice === null ? undefined : NOTICES.get(notice);
  if (text === undefined) return null;
  // Restoring the version visitors already see leaves no draft: say that, not "publish it".
  if (notice === 'restored' && state === 'published')
    return 'That version is the one visitors see already: there is no draft to publish.';
  return notice === 'saved' && state ? text + AFTER_SAVE[state] : text;
}

function PageCommand({
  command,
  action,
  page,
  label,
  className,
}: {
  command: 'publish' | 'unpublish' | 'discard';
  action: (formData: FormData) => Promise<void>;
  page: PageView;
  label: string;
  className?: string;
}) {
  return (
    <form action={action} className={`inline-form command-${command}`}>
      <input type="hidden" name="slug" value={page.slug} />
      <input type="hidden" name="pageId" value={page.id} />
      <input type="hidden" name="version" value={page.version} />
      <button type="submit" className={className}>
        {label}
      </button>
    </form>
  );
}

/** The commands that cannot be taken back, what each asks, and its button's words. */
export const CONFIRMABLE_COMMANDS = ['unpublish', 'discard', 'delete'] as const;
export type ConfirmableCommand = (typeof CONFIRMABLE_COMMANDS)[number];

/** Whether a command applies to a page in its state (the banner offers only those). */
export function commandApplies(command: ConfirmableCommand, page: PageView): boolean {
  return command === 'unpublish'
    ? page.state !== 'draft-only'
    : command === 'discard'
      ? page.state === 'changed'
      : page.state === 'draft-only';
}

/**
 * Whether the reader may press a command's button (as the action's `may` asks: discarding a
 * draft is editing it; deleting a draft-only page is both), so none is shown that would refuse.
 */
function mayConfirm(
  command: ConfirmableCommand,
  may: { edit: boolean; unpublish: boolean; delete: boolean },
): boolean {
  return command === 'unpublish'
    ? may.unpublish
    : command === 'discard'
      ? may.edit
      : may.edit && may.delete;
}

/**
 * What a command asks before it runs. `published` is how many times the page was published:
 * a draft-only page may have been published before (then unpublished), and deleting it ends
 * that history too, which the question must say.
 */
export function confirmationOf(command: ConfirmableCommand, page: PageView, published = 0) {
  return command === 'unpublish'
    ? {
        label: 'Unpublish',
        question: `Unpublish “${page.title}”? Visitors will get “Page not found” at /${page.slug}; the text is kept as a draft.`,
        form: (
          <PageCommand
            command="unpublish"
            action={unpublishPage}
            page={page}
            label="Unpublish"
            className="danger"
          />
        ),
      }
    : command === 'delete'
      ? {
          label: 'Delete draft page',
          question:
            published === 0
              ? `Delete “${page.title}” for good? It was never published; its text will be gone.`
              : `Delete “${page.title}” for good? It is not published now, but it was ${published === 1 ? 'once' : `${published} times`}: its text and its whole history will be gone.`,
          form: (
            <PageCommand
              command="discard"
              action={discardDraft}
              page={page}
              label="Delete for good"
              className="danger"
            />
          ),
        }
      : {
          label: 'Discard draft',
          question: `Discard the draft of “${page.title}”? The published version stays; the draft’s text will be gone (earlier published versions remain in the history).`,
          form: (
            <PageCommand
              command="discard"
              action={discardDraft}
              page={page}
              label="Discard draft"
              className="danger"
            />
          ),
        };
}

function Confirmed({
  command,
  page,
  published,
}: {
  command: ConfirmableCommand;
  page: PageView;
  published: number;
}) {
  const { label, question, form } = confirmationOf(command, page, published);
  return (
    <ConfirmCommand
      href={`${previewPath(page.slug)}?confirm=${command}`}
      label={label}
      question={question}
    >
      {form}
    </ConfirmCommand>
  );
}

/**
 * A schedule that came due and did not publish: said until an editor publishes, schedules
 * again, discards the draft or dismisses it here, so whoever opens the page learns why the
 * time passed and nothing went out (the server's log line is not where an editor looks).
 */
function MissedScheduleNotice({ page, missed }: { page: PageView; missed: MissedSchedule }) {
  return (
    <div role="alert" className="notice missed-schedule">
      <p>
        <strong>The publish scheduled for </strong>
        <LocalTime iso={missed.publishAt} />
        {missed.scheduledBy ? ` on behalf of ${missed.scheduledBy}` : ''}
        <strong> did not happen.</strong> {missed.reason}
      </p>
      <form action={dismissMissedSchedule} className="inline-form">
        <input type="hidden" name="slug" value={page.slug} />
        <input type="hidden" name="pageId" value={page.id} />
        {/* Which notice was read: a newer one is not dismissed unseen. */}
        <input type="hidden" name="missedAt" value={missed.publishAt} />
        <button type="submit">Dismiss</button>
      </form>
    </div>
  );
}

/** What is shown, when and by whom it was saved, and what the editor can do with it. */
export function PreviewBanner({
  page,
  editing,
  notice,
  shareLinks,
  published,
  schedule,
  missedSchedule,
  may,
  review,
}: {
  page: PageView;
  editing: boolean;
  notice: string | null;
  shareLinks: readonly PreviewLink[];
  /** How many times the page was published (its history's length). */
  published: number;
  /** The page's pending scheduled publish, if any. */
  schedule: Schedule | null;
  /** A schedule that came due and did not publish, until an editor answers it. */
  missedSchedule: MissedSchedule | null;
  /** What the reader may do to this page (the permission table's can()). */
  may: {
    publish: boolean;
    schedule: boolean;
    submit: boolean;
    review: boolean;
    edit: boolean;
    unpublish: boolean;
    delete: boolean;
    share: boolean;
    /** A posted form's answer: a refused share form says why, without the form. */
    shareAnswer?: boolean;
    revoke: boolean;
  };
  /** The page's request for review, if any (decision 0040). */
  review: ReviewRequest | null;
}) {
  const savedAt = page.draftUpdatedAt ?? page.updatedAt;
  const savedBy = page.draftUpdatedBy ?? page.updatedBy;
  const lastChange = (
    <>
      <LocalTime iso={savedAt} />
      {savedBy ? ` by ${savedBy}` : ''}
    </>
  );
  return (
    <section className="preview-banner" aria-label="Preview">
      {/* On a phone the line says the state in a few words, beside the menu, and the rest
          opens with the menu (preview.css shows one or the other, never both). */}
      <p className="preview-state">
        <span className="preview-state-full">
          <strong>Preview</strong> · {STATE_LABELS[page.state]} · last change {lastChange}
        </span>
        <span className="preview-state-short">{SHORT_STATE_LABELS[page.state]}</span>
      </p>
      {notice ? (
        <p role="status" className="notice">
          {notice}
        </p>
      ) : null}
      {/* An alert that waits for an answer stays in view: it is never folded into the menu. */}
      {missedSchedule ? <MissedScheduleNotice page={page} missed={missedSchedule} /> : null}
      <ReviewStatus page={page} review={review} mayReview={may.review} />
      {/* On a phone the commands fold into a menu under the state line (issue 26), so the
          editor's title starts in the first screen. <details> opens without JavaScript and is
          a button to keyboards and screen readers; on wider screens preview.css shows its
          contents as they always were and hides the summary. Publish is in the menu too: a
          tap beside the state line that goes public at once is easy to make by mistake while
          scrolling, and autosave keeps the text meanwhile. */}
      <details className="banner-menu">
        <summary>Page actions</summary>
        <p className="banner-menu-state">
          {STATE_LABELS[page.state]} · last change {lastChange}
        </p>
        <div className="preview-actions">
          {editing ? (
            <a href={previewPath(page.slug)}>Close editor</a>
          ) : may.edit ? (
            <a href={`${previewPath(page.slug)}?edit`}>Edit</a>
          ) : null}
          {!may.publish ? null : editing ? (
            // Offered when there is something to publish: a draft, or text typed since.
            <EditorPublishButton draft={page.state !== 'published'} />
          ) : page.state !== 'published' ? (
            <PageCommand
              command="publish"
              action={publishPage}
              page={page}
              label="Publish this draft"
              className="primary"
            />
          ) : null}
          {may.submit && submitApplies(page, review) ? (
            <SubmitForReviewForm page={page} review={review} primary={!may.publish} />
          ) : null}
          {CONFIRMABLE_COMMANDS.filter(
            (command) => commandApplies(command, page) && mayConfirm(command, may),
          ).map((command) => (
            <Confirmed key={command} command={command} page={page} published={published} />
          ))}
          <a href={`${previewPath(page.slug)}?history`}>History</a>
          {page.state !== 'draft-only' ? (
            <a href={publicPath(page.slug)}>Exit preview</a>
          ) : (
            <a href={PREVIEW_DASHBOARD}>Exit preview</a>
          )}
        </div>
        {may.schedule && (page.state !== 'published' || schedule) ? (
          <ScheduleForm
            slug={page.slug}
            pageId={page.id}
            version={page.version}
            schedule={schedule}
          />
        ) : null}
        {/* Walk-through (issue 28): a writer whose page a reviewer scheduled saw nothing of it,
            and their next keystroke cancelled it unannounced. Said before they type. */}
        {!may.schedule && schedule ? (
          <p className="schedule-note">
            Will be published <LocalTime iso={schedule.publishAt} />
            {schedule.scheduledBy ? `, scheduled by ${schedule.scheduledBy}` : ''}. A change to the
            draft cancels it and asks for review again.
          </p>
        ) : null}
        {may.share || may.shareAnswer ? (
          <ShareLinkForm pageId={page.id} slug={page.slug} allowed={may.share} />
        ) : null}
        {shareLinks.length > 0 ? (
          <details className="share-links">
            <summary>
              {shareLinks.length === 1
                ? '1 share link is open'
                : `${shareLinks.length} share links are open`}
            </summary>
            <ul>
              {shareLinks.map((link) => (
                <li key={link.id}>
                  Made by {link.createdBy ?? 'the CLI'} on <LocalTime iso={link.createdAt} />, works
                  until <LocalTime iso={link.expiresAt} />{' '}
                  {may.revoke ? (
                    <form action={revokeShareLink} className="inline-form">
                      <input type="hidden" name="slug" value={page.slug} />
                      <input type="hidden" name="pageId" value={page.id} />
                      <input type="hidden" name="linkId" value={link.id} />
                      <button type="submit">Revoke</button>
                    </form>
                  ) : null}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </details>
    </section>
  );
}
