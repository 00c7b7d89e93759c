import type { PageProps } from 'waku/router';
import { unstable_notFound as notFound, unstable_redirect as redirect } from 'waku/router/server';
import { Article } from '../../components/article';
import { Dashboard, type DashboardQuery, dashboardQuery } from '../../components/preview/dashboard';
import { MediaLibrary } from '../../components/preview/media-library';
import type { LibraryImage } from '../../components/preview/page-editor';
import { PageEditor } from '../../components/preview/page-editor';
import { historyQuery, PageHistory } from '../../components/preview/page-history';
import {
  CONFIRMABLE_COMMANDS,
  type ConfirmableCommand,
  commandApplies,
  confirmationOf,
  noticeText,
  PreviewBanner,
  STATE_LABELS,
} from '../../components/preview/preview-banner';
import { SignInForm } from '../../components/preview/sign-in-form';
import { SiteSettingsForm } from '../../components/preview/site-settings-form';
import { TestErrors } from '../../components/preview/test-errors';
import { contentStore, type PageView } from '../../lib/content/content';
import { formatUtc } from '../../lib/content/dates';
import { getDatabase } from '../../lib/data/db';
import { currentEditorSession } from '../../lib/editors/session';
import { markPrivate, requestContext, setDocumentStatus } from '../../lib/http/request-context';
import {
  HOME_SLUG,
  isValidSlug,
  PREVIEW_DASHBOARD,
  previewPath,
  rewriteLinksForPreview,
  SHARE_PARAM,
  shareLinkPath,
} from '../../lib/http/routes';
import { mediaStore } from '../../lib/media/media';
import { mediaPath } from '../../lib/media/media-refs';
import { getEnv } from '../../lib/runtime/env';
import { checkPreviewLink, listPreviewLinks } from '../../lib/share-links/share-links';

const EMPTY_PAGE = {
  slug: '',
  originalSlug: '',
  pageId: '',
  title: '',
  summary: '',
  body: '',
  version: '0',
};

// /preview is the editors' dashboard (and, with ?new, ?settings, the new-page editor and the
// site settings); /preview/<slug> mirrors /<slug> with drafts, with ?edit, ?history and
// ?confirm=… for the page's editor, history and confirmations. Signed-in editors only; a valid
// share link shows one page's draft read-only; anyone else gets the sign-in form (401).
export default async function PreviewPage({
  slug: segments = [],
  query,
}: PageProps<'/preview/[...slug]'>) {
  markPrivate();
  const slug = segments.length === 1 ? segments[0] : undefined;
  const params = new URLSearchParams(query);
  const session = await currentEditorSession();

  if (!session) {
    const share = params.get(SHARE_PARAM);
    if (share !== null && slug !== undefined) return <SharedDraft slug={slug} token={share} />;
    setDocumentStatus(401);
    const page = slug && isValidSlug(slug) ? previewPath(slug) : PREVIEW_DASHBOARD;
    return (
      <>
        <title>Sign in · Folio preview</title>
        <SignInForm next={slug && params.has('edit') ? `${page}?edit` : page} />
        <KeptTyped />
      </>
    );
  }

  const noticeParam = params.get('notice');
  const store = contentStore();

  if (segments.length === 0) {
    if (params.has('new'))
      return (
        <>
          <title>New page · Folio preview</title>
          <h1>New page</h1>
          <PageEditor
            initial={EMPTY_PAGE}
            initialHtml=""
            savedAt={null}
            {...(await editorMedia())}
          />
        </>
      );
    if (params.has('settings')) return <Settings notice={noticeParam} />;
    if (params.has('media')) {
      const media = mediaStore();
      const [items, usage] = await Promise.all([media.list(), media.usage()]);
      return (
        <MediaLibrary
          items={items}
          usage={usage}
          notice={noticeParam}
          maxMb={getEnv().MEDIA_MAX_MB}
        />
      );
    }
    return <DashboardPage query={dashboardQuery(params)} notice={noticeParam} />;
  }
  if (slug === undefined || !isValidSlug(slug)) notFound();

  const { request, formPageId } = requestContext();
  // After a form post without JavaScript, the page the form was made for, wherever it is now:
  // its address may have passed to another page meanwhile, whose banner must not be shown
  // above this editor's text.
  let page =
    request.method === 'POST' && formPageId !== undefined
      ? await store.getPageById(formPageId)
      : await store.getPage(slug, { draft: true });
  if (!page && formPageId === undefined) {
    const current = await store.findRedirect(slug, { draft: true });
    if (current) {
      // A form posted from the old address (someone renamed the page meanwhile) is answered
      // here, with the editor's text in it; only a plain visit follows the rename.
      if (request.method !== 'POST')
        redirect(`${previewPath(current)}${query ? `?${query}` : ''}`, 308);
      page = await store.getPage(current, { draft: true });
    }
  }
  if (!page) {
    // A form posted for a page deleted meanwhile: the editor is answered here (its action
    // turned the form into a new page's, with the typed text), never with a 404 that loses it.
    if (request.method === 'POST' && params.has('edit')) {
      return (
        <>
          <title>Page deleted · Folio preview</title>
          <p role="status">This page was deleted while you were editing it.</p>
          <PageEditor
            initial={{ ...EMPTY_PAGE, slug }}
            initialHtml=""
            savedAt={null}
            {...(await editorMedia())}
          />
        </>
      );
    }
    notFound();
  }

  const revisions = await store.listRevisions(page.id);
  const confirm = CONFIRMABLE_COMMANDS.find((command) => command === params.get('confirm'));
  if (confirm) return <Confirmation page={page} command={confirm} published={revisions.length} />;

  const editing = params.has('edit');
  const history = params.has('history');
  const banner = (
    <PreviewBanner
      page={page}
      editing={editing}
      notice={noticeText(noticeParam, page.state)}
      shareLinks={await listPreviewLinks(await getDatabase(), { pageId: page.id })}
      published={revisions.length}
      schedule={await contentStore().scheduleOf(page.id)}
      missedSchedule={await contentStore().missedScheduleOf(page.id)}
    />
  );
  if (history)
    return (
      <>
        <title>{`History: ${page.title} · Folio preview`}</title>
        {banner}
        <PageHistory page={page} revisions={revisions} query={historyQuery(params)} />
      </>
    );
  return (
    <>
      <title>{`${page.title} · Folio preview`}</title>
      {banner}
      {editing ? (
        <PageEditor
          {...(await editorMedia())}
          initial={{
            slug: page.slug,
            originalSlug: page.slug,
            pageId: String(page.id),
            title: page.title,
            summary: page.summary,
            body: page.bodyMarkdown,
            version: String(page.version),
          }}
          initialHtml={rewriteLinksForPreview(page.bodyHtml)}
          savedAt={page.draftUpdatedAt ?? page.updatedAt}
        />
      ) : (
        <Article page={{ ...page, bodyHtml: rewriteLinksForPreview(page.bodyHtml) }} />
      )}
    </>
  );
}

async function DashboardPage({ query, notice }: { query: DashboardQuery; notice: string | null }) {
  const text = noticeText(notice);
  return (
    <>
      <title>Pages · Folio preview</title>
      {text ? (
        <p role="status" className="notice">
          {text}
        </p>
      ) : null}
      <Dashboard pages={await contentStore().listAll()} query={query} />
      <TestErrors />
    </>
  );
}

async function Settings({ notice }: { notice: string | null }) {
  const store = contentStore();
  const [settings, pages] = await Promise.all([store.getSiteSettings(), store.listAll()]);
  const published = pages.filter((page) => page.state !== 'draft-only' && page.slug !== HOME_SLUG);
  // The pages in the navigation first, in its order; then the others by title.
  const order = settings.navigation ?? [];
  const rank = (id: number) => (order.includes(id) ? order.indexOf(id) : order.length);
  published.sort((a, b) => rank(a.id) - rank(b.id) || a.title.localeCompare(b.title));
  return (
    <>
      <title>Site settings · Folio preview</title>
      <h1>Site settings</h1>
      {notice === 'settings-saved' ? (
        <p role="status" className="notice">
          Settings saved. Visitors see them on their next page.
        </p>
      ) : null}
      <p>
        <a href={PREVIEW_DASHBOARD}>Back to the pages</a>
      </p>
      <SiteSettingsForm
        settings={settings}
        published={published.map((page) => ({ id: page.id, slug: page.slug, title: page.title }))}
      />
    </>
  );
}

/** The confirmation page of a command that cannot be taken back (no JavaScript: no dialog). */
function Confirmation({
  page,
  command,
  published,
}: {
  page: PageView;
  command: ConfirmableCommand;
  published: number;
}) {
  const { label, question, form } = confirmationOf(command, page, published);
  // An old link, or one typed by hand, for a command this page's state does not offer.
  if (!commandApplies(command, page))
    return (
      <section className="card confirm-page">
        <title>{`Nothing to ${command} · Folio preview`}</title>
        <h1>Nothing to {command}</h1>
        <p>
          “{page.title}”: {STATE_LABELS[page.state]}. This does not apply to it now.
        </p>
        <p>
          <a href={previewPath(page.slug)}>Back to the page</a>
        </p>
      </section>
    );
  return (
    <section className="card confirm-page">
      <title>{`${label}? · Folio preview`}</title>
      <h1>{label}?</h1>
      <p>{question}</p>
      <div className="confirm-actions">
        {form}
        <a href={previewPath(page.slug)}>Cancel</a>
      </div>
    </section>
  );
}

/**
 * A form posted after the editor's session ended (without JavaScript): nothing was saved, and
 * the sign-in page replaced their form, so what they typed is handed back here to copy.
 */
function KeptTyped() {
  const { request, keptText } = requestContext();
  if (request.method !== 'POST' || !keptText) return null;
  return (
    <section className="card kept-typed" aria-label="What you typed">
      <p>
        <strong>Your session had ended, so nothing was saved.</strong> What you typed is below: copy
        it, sign in, and paste it back.
      </p>
      {keptText.map(({ name, value }) => (
        <label key={name}>
          {name[0]?.toUpperCase()}
          {name.slice(1)}
          <textarea readOnly rows={Math.min(18, value.split('\n').length + 1)} value={value} />
        </label>
      ))}
    </section>
  );
}

/** A reviewer's read-only view through a share link: its page's draft and nothing else. */
async function SharedDraft({ slug, token }: { slug: string; token: string }) {
  const check = await checkPreviewLink(await getDatabase(), token);
  const page = check.ok ? await contentStore().getPageById(check.link.pageId) : null;
  // The link is bound to its page, not to an address: opened at another address (the page was
  // renamed, perhaps another page took the old one) it goes to its page, never shows another.
  if (page && page.slug !== slug) redirect(shareLinkPath(page.slug, token), 307);
  if (!check.ok || !page) {
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
        {formatUtc(check.link.expiresAt)}.
      </p>
      <Article page={page} />
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;

/** What the editor's Image menu and upload need: the newest images and the size limit. */
async function editorMedia(): Promise<{ images: LibraryImage[]; maxUploadMb: number }> {
  const items = await mediaStore().list({ limit: 24 });
  const images = items.map((item) => ({
    hash: item.hash,
    alt: item.alt,
    thumbnail: mediaPath(
      item.hash,
      item.variants.find((variant) => variant.name === '480.webp')?.name ??
        item.src.split('/').pop() ??
        '',
    ),
  }));
  return { images, maxUploadMb: getEnv().MEDIA_MAX_MB };
}
