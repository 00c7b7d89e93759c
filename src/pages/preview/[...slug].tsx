import type { PageProps } from 'waku/router';
import { unstable_notFound as notFound, unstable_redirect as redirect } from 'waku/router/server';
import { Article } from '../../components/article';
import { PageEditor } from '../../components/preview/page-editor';
import { PageIndex } from '../../components/preview/page-index';
import { noticeText, PreviewBanner } from '../../components/preview/preview-banner';
import { SignInForm } from '../../components/preview/sign-in-form';
import { TestErrors } from '../../components/preview/test-errors';
import { contentStore } from '../../lib/content';
import { formatUtc } from '../../lib/dates';
import { getDatabase } from '../../lib/db';
import { currentEditorSession } from '../../lib/editor-session';
import { checkPreviewToken } from '../../lib/preview-links';
import { previewPath, rewriteLinksForPreview } from '../../lib/preview-paths';
import { markPrivate, setDocumentStatus } from '../../lib/request-scope';
import { siteSecret } from '../../lib/secrets';
import { HOME_SLUG, isValidSlug } from '../../lib/slug';

const EMPTY_PAGE = { slug: '', originalSlug: '', title: '', summary: '', body: '', version: '0' };

// /preview mirrors / and /preview/<slug> mirrors /<slug>, with drafts, for signed-in editors;
// a valid share link shows one page's draft read-only; anyone else gets the sign-in form (401).
export default async function PreviewPage({
  slug: segments = [],
  query,
}: PageProps<'/preview/[...slug]'>) {
  markPrivate();
  const slug = segments.length === 0 ? HOME_SLUG : segments.length === 1 ? segments[0] : undefined;
  const params = new URLSearchParams(query);
  const session = currentEditorSession();

  if (!session) {
    const share = params.get('share');
    if (share !== null && slug !== undefined) return <SharedDraft slug={slug} token={share} />;
    setDocumentStatus(401);
    return (
      <>
        <title>Sign in · Folio preview</title>
        <SignInForm next={slug && isValidSlug(slug) ? previewPath(slug) : '/preview'} />
      </>
    );
  }

  if (slug === undefined || !isValidSlug(slug)) notFound();
  const store = contentStore();
  const notice = noticeText(params.get('notice'));

  if (slug === HOME_SLUG && params.has('new')) {
    return (
      <>
        <title>New page · Folio preview</title>
        <h1>New page</h1>
        <PageEditor initial={EMPTY_PAGE} isNew />
      </>
    );
  }

  const page = store.getPage(slug, { draft: true });
  if (!page) {
    const current = store.findRedirect(slug, { draft: true });
    if (current) redirect(previewPath(current), 308);
    if (slug === HOME_SLUG) {
      return (
        <>
          {notice ? <p role="status">{notice}</p> : null}
          <p>There is no home page yet.</p>
          <PageIndex pages={store.listAll()} />
        </>
      );
    }
    notFound();
  }

  const editing = params.has('edit');
  return (
    <>
      <title>{`${page.title} · Folio preview`}</title>
      <PreviewBanner page={page} editing={editing} notice={notice} />
      {editing ? (
        <PageEditor
          isNew={false}
          initial={{
            slug: page.slug,
            originalSlug: page.slug,
            title: page.title,
            summary: page.summary,
            body: page.bodyMarkdown,
            version: String(page.version),
          }}
        />
      ) : (
        <Article page={{ ...page, bodyHtml: rewriteLinksForPreview(page.bodyHtml) }} />
      )}
      {slug === HOME_SLUG ? (
        <>
          <PageIndex pages={store.listAll()} />
          <TestErrors />
        </>
      ) : null}
    </>
  );
}

/** A reviewer's read-only view through a signed link: that page's draft and nothing else. */
function SharedDraft({ slug, token }: { slug: string; token: string }) {
  const check = isValidSlug(slug)
    ? checkPreviewToken(siteSecret(getDatabase()), token, slug)
    : null;
  const page = check?.ok ? contentStore().getPage(slug, { draft: true }) : null;
  if (!check?.ok || !page) {
    setDocumentStatus(403);
    return (
      <section className="card">
        <title>Preview link expired · Folio</title>
        <h1>This preview link has expired or is not valid</h1>
        <p>Ask the editor who shared it for a new link.</p>
      </section>
    );
  }
  return (
    <>
      <title>{`${page.title} · shared preview`}</title>
      <p className="preview-banner">
        <strong>Shared preview</strong> of a draft, read-only. The link works until{' '}
        {formatUtc(check.expiresAt)}.
      </p>
      <Article page={page} />
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
