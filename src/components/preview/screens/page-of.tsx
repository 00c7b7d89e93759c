// Owns what the page screens share: the page an address (or a form posted for it) means, the
// banner above a page's preview, and the images the editor offers. Data comes from the stores.
import 'server-only';
import type { ReactNode } from 'react';
import { unstable_notFound as notFound, unstable_redirect as redirect } from 'waku/router/server';
import type { Byline } from '../../../lib/content/authors';
import { contentStore, NEW_PAGE_KIND, type PageView } from '../../../lib/content/content';
import { signedInEditor } from '../../../lib/editor/guard';
import { type Action, can } from '../../../lib/editors/permissions';
import { requestContext } from '../../../lib/http/request-context';
import { isValidSlug, previewPath } from '../../../lib/http/routes';
import { siteOrigin } from '../../../lib/http/site-url';
import { mediaStore } from '../../../lib/media/media';
import { mediaPath } from '../../../lib/media/media-refs';
import { getEnv } from '../../../lib/runtime/env';
import { shareLinks } from '../../../lib/share-links/share-links';
import { libraryImage } from '../../../lib/social-card/share-image';
import { datesOf } from '../../article';
import { SiteFooter, SiteFrameHeader, siteFrameData } from '../../site-frame';
import { LivePaneFrameProvider } from '../editor/live-pane-frame';
import type { LibraryImage } from '../page-editor';
import { noticeText, PreviewBanner } from '../preview-banner';
import type { SharingContext } from '../seo-section';
import type { Asked } from './asked';

export const EMPTY_PAGE = {
  slug: '',
  originalSlug: '',
  pageId: '',
  title: '',
  summary: '',
  body: '',
  version: '0',
  kind: NEW_PAGE_KIND,
  topics: '',
  authors: '',
};

/**
 * The page a page screen shows, or a 404. After a form post without JavaScript it is the page
 * the form was made for, wherever it is now: its address may have passed to another page
 * meanwhile, whose banner must not be shown above this editor's text. With `orDeleted`, a form
 * posted for a page deleted meanwhile answers null instead of a 404 that loses the typed text.
 */
export async function pageOf(asked: Asked): Promise<PageView>;
export async function pageOf(asked: Asked, options: { orDeleted: true }): Promise<PageView | null>;
export async function pageOf(
  { slug, query, segments }: Asked,
  { orDeleted = false }: { orDeleted?: boolean } = {},
): Promise<PageView | null> {
  if (segments.length !== 1 || slug === undefined || !isValidSlug(slug)) notFound();
  const store = contentStore();
  const { request, formPageId } = requestContext();
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
  if (page) return page;
  if (orDeleted && request.method === 'POST') return null;
  notFound();
}

/** How many times the page was published (its history's length). */
export async function publishedCount(page: PageView): Promise<number> {
  return contentStore().countRevisions(page.id);
}

/** The banner above a page's preview, editor and history. */
export async function Banner({
  page,
  editing,
  notice,
}: {
  page: PageView;
  editing: boolean;
  notice: string | null;
}) {
  const store = contentStore();
  const schedule = await store.scheduleOf(page.id);
  // What this reader may do to this page, from the one table: the banner shows no button its
  // reader may not press (a Contributor sees Submit for review, not Publish or Schedule).
  const [session, ownership, review] = await Promise.all([
    signedInEditor(),
    store.pageOwnership(page.id),
    store.reviewOf(page.id),
  ]);
  const may = (action: Action) =>
    session !== null && ownership !== null && can(session.editor, action, ownership);
  return (
    <PreviewBanner
      may={{
        publish: may('page.publish'),
        schedule: may('page.schedule'),
        submit: may('page.submit'),
        review: may('page.review'),
        edit: may('page.edit'),
        unpublish: may('page.unpublish'),
        delete: may('page.delete'),
        // Asked with the page on every render (hostile pass 2: a refused forged POST showed a
        // Contributor the form). A posted form that was refused still says why (shareAnswer).
        share: may('share-link.create'),
        shareAnswer: requestContext().request.method === 'POST',
        revoke: may('share-link.revoke'),
      }}
      review={review}
      page={page}
      editing={editing}
      // "Scheduled…" lives in the address (?notice=): once the schedule is gone (it published,
      // or was cancelled elsewhere), the notice would be stale, so it is not shown (issue 26).
      notice={notice === 'scheduled' && !schedule ? null : noticeText(notice, page.state)}
      shareLinks={await shareLinks().listOpen({ pageId: page.id })}
      published={await publishedCount(page)}
      schedule={schedule}
      missedSchedule={await store.missedScheduleOf(page.id)}
    />
  );
}

/** The site's header and footer around the editor's live pane (editor/live-pane-frame.tsx). */
export async function WithSiteFrame({
  page,
  children,
}: {
  /** The page edited (none for a new one: dated as a first publish today). */
  page?: PageView;
  children: ReactNode;
}) {
  const frame = await siteFrameData({ draft: true });
  const now = new Date().toISOString();
  return (
    <LivePaneFrameProvider
      header={<SiteFrameHeader {...frame} pathOf={previewPath} />}
      footer={<SiteFooter {...frame} pathOf={previewPath} />}
      dates={page ? datesOf(page, { asWillBePublished: true }) : { published: now, updated: now }}
    >
      {children}
    </LivePaneFrameProvider>
  );
}

/**
 * What the editor's Image menu and upload need (the newest images and the size limit), and its
 * Search and sharing section (the same images with their sizes, the page's chosen social image
 * wherever it is in the library, the site's title, accent and default social image).
 */
export async function editorMedia(chosenImage: string | null = null): Promise<{
  images: LibraryImage[];
  maxUploadMb: number;
  topicNames: string[];
  authorChoices: Byline[];
  sharing: SharingContext;
}> {
  const [items, topics, authorChoices, settings] = await Promise.all([
    mediaStore().list({ limit: 24 }),
    contentStore().suggestedTopicNames(),
    contentStore().authorChoices(),
    contentStore().getSiteSettings(),
  ]);
  const wanted = [chosenImage, settings.socialImage].filter(
    (hash): hash is string => hash !== null && !items.some((item) => item.hash === hash),
  );
  const extra = wanted.length > 0 ? await mediaStore().byHashes(wanted) : new Map();
  const library = [...items, ...(chosenImage ? [extra.get(chosenImage)].filter(Boolean) : [])];
  const thumbnailOf = (item: (typeof items)[number]) =>
    mediaPath(
      item.hash,
      item.variants.find((variant) => variant.name === '480.webp')?.name ??
        item.src.split('/').pop() ??
        '',
    );
  const defaultItem = settings.socialImage
    ? (items.find((item) => item.hash === settings.socialImage) ?? extra.get(settings.socialImage))
    : undefined;
  const defaultImage = defaultItem ? libraryImage(defaultItem) : null;
  const sharing: SharingContext = {
    siteTitle: settings.title,
    accent: settings.accent,
    origin: siteOrigin(),
    defaultImage: defaultImage
      ? {
          src: defaultImage.path,
          width: defaultImage.width,
          height: defaultImage.height,
          alt: defaultImage.alt,
        }
      : null,
    images: library.map((item) => ({
      hash: item.hash,
      alt: item.alt,
      thumbnail: thumbnailOf(item),
      width: item.width,
      height: item.height,
    })),
  };
  const images = items.map((item) => ({
    hash: item.hash,
    alt: item.alt,
    thumbnail: thumbnailOf(item),
  }));
  return {
    images,
    maxUploadMb: getEnv().MEDIA_MAX_MB,
    topicNames: topics,
    authorChoices,
    sharing,
  };
}
