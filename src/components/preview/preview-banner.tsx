import type { PageView } from '../../lib/content';
import { formatUtc } from '../../lib/dates';
import { previewPath, publicPath } from '../../lib/preview-paths';
import { discardDraft, publishPage, unpublishPage } from './actions';
import { ShareLinkForm } from './share-link-form';

const STATE_LABELS: Record<PageView['state'], string> = {
  published: 'Published, no unpublished changes',
  changed: 'Published, with a newer draft (shown here)',
  'draft-only': 'Draft only: not published',
};

const NOTICES: Record<string, string> = {
  saved: 'Draft saved. Visitors still see the published version.',
  published: 'Published. Visitors see this version now.',
  unpublished: 'Unpublished. Visitors get a 404; the text is kept as a draft.',
  discarded: 'Draft discarded.',
  deleted: 'The draft-only page was deleted.',
  stale:
    'Nothing changed: the page was changed by someone else since you opened it. Review it and try again.',
  refused: 'That could not be done.',
  busy: 'Folio is busy saving other changes; nothing was changed. Try again in a moment.',
  'signed-out': 'Your session has ended. Sign in again.',
};

export function noticeText(notice: string | null): string | null {
  return notice ? (NOTICES[notice] ?? null) : null;
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
      <input type="hidden" name="version" value={page.version} />
      <button type="submit" className={className}>
        {label}
      </button>
    </form>
  );
}

/** What is shown, when and by whom it was saved, and what the editor can do with it. */
export function PreviewBanner({
  page,
  editing,
  notice,
}: {
  page: PageView;
  editing: boolean;
  notice: string | null;
}) {
  const savedAt = page.draftUpdatedAt ?? page.publishedAt ?? page.updatedAt;
  const savedBy = page.draftUpdatedBy;
  return (
    <section className="preview-banner" aria-label="Preview">
      <p className="preview-state">
        <strong>Preview</strong> · {STATE_LABELS[page.state]} · last saved{' '}
        <time dateTime={savedAt}>{formatUtc(savedAt)}</time>
        {savedBy ? ` by ${savedBy}` : ''}
      </p>
      {notice ? (
        <p role="status" className="notice">
          {notice}
        </p>
      ) : null}
      <div className="preview-actions">
        {editing ? (
          <a href={previewPath(page.slug)}>Close editor</a>
        ) : (
          <a href={`${previewPath(page.slug)}?edit`}>Edit</a>
        )}
        {page.state !== 'published' ? (
          <PageCommand
            command="publish"
            action={publishPage}
            page={page}
            label="Publish this draft"
            className="primary"
          />
        ) : null}
        {page.state !== 'draft-only' ? (
          <PageCommand command="unpublish" action={unpublishPage} page={page} label="Unpublish" />
        ) : null}
        {page.state !== 'published' ? (
          <PageCommand
            command="discard"
            action={discardDraft}
            page={page}
            label={page.state === 'draft-only' ? 'Delete draft page' : 'Discard draft'}
          />
        ) : null}
        {page.state !== 'draft-only' ? (
          <a href={publicPath(page.slug)}>Exit preview</a>
        ) : (
          <a href="/">Exit preview</a>
        )}
      </div>
      <ShareLinkForm slug={page.slug} />
    </section>
  );
}
