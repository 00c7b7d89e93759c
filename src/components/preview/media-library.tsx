// The media library at /preview?media: upload, then one page of images (newest first, 40 at a
// time, keyset-paged; issue 25) with where each is used, its alt text (editable), the Markdown
// that shows it, and delete — refused while a page uses it. Search and the pager are GET
// addresses, so they work without JavaScript and can be bookmarked.

import { searchIsWordless } from '../../lib/content/page-list-params';
import { MEDIA_LIBRARY, PREVIEW_DASHBOARD, previewPath } from '../../lib/http/routes';
import {
  MEDIA_MATCHES_COUNTED,
  type MediaCursor,
  type MediaListQuery,
  type MediaListResult,
  type MediaUse,
  mediaCursorParam,
  USES_COUNTED,
} from '../../lib/media/media-list-params';
import type { MediaItem } from '../../lib/media/media-refs';
import { imageMarkdown, mediaPath } from '../../lib/media/media-refs';
import { LocalTime } from './local-time';
import { MediaItemForm } from './media-item-form';
import { UploadForm } from './upload-form';

const NOTICES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'media-saved': 'Alt text saved. Pages show it when they are next saved or published.',
    'media-deleted': 'Image deleted.',
    'media-in-use':
      'Not deleted: a page uses this image (listed with it), in its text or as its social image (Search and sharing). Take it out of the page (and publish it), then delete the image.',
    'media-in-settings':
      'Not deleted: Site settings use this image (listed with it). Choose another there, or none, then delete the image.',
    'media-is-photo':
      'Not deleted: an author’s profile shows this image as their photo (listed with it). Choose another photo there, or none, then delete the image.',
    'media-gone': 'That image was deleted meanwhile.',
    busy: 'Folio is busy; nothing was changed. Try again in a moment.',
    unavailable:
      'Folio cannot reach its database right now; nothing was changed. Try again in a moment.',
  }),
);

function thumbnailOf(item: MediaItem): string {
  const small = item.variants.find((variant) => variant.name.endsWith('.webp'));
  return small ? mediaPath(item.hash, small.name) : item.src;
}

/** The address of another page of the same list (the search kept). */
function pageHref(query: MediaListQuery, cursor: MediaCursor): string {
  const params = new URLSearchParams();
  if (query.q !== '') params.set('q', query.q);
  params.set(cursor.direction, mediaCursorParam(cursor));
  return `${MEDIA_LIBRARY}&${params}`;
}

const imagesText = (n: number) => (n === 1 ? '1 image' : `${n} images`);

/** "Used on 42 pages: /a (published), /b (draft) and 40 more", or "Not used on any page." */
function UsedOn({ use }: { use: MediaUse | undefined }) {
  if (!use || use.pages === 0) return <>Not used on any page.</>;
  const more = use.pages - use.shown.length;
  return (
    <>
      Used on {use.pages > USES_COUNTED ? `more than ${USES_COUNTED}` : use.pages}{' '}
      {use.pages === 1 ? 'page' : 'pages'}:{' '}
      {use.shown.map((page, index) => (
        <span key={page.slug}>
          {index > 0 ? ', ' : ''}
          <a href={previewPath(page.slug)}>{`/${page.slug}`}</a>
          {` (${[page.published ? 'published' : '', page.draft ? 'draft' : ''].filter(Boolean).join(', ')})`}
        </span>
      ))}
      {more > 0 ? (use.pages > USES_COUNTED ? ' and more' : ` and ${more} more`) : ''}
    </>
  );
}

export function MediaLibrary({
  list,
  query,
  notice,
  maxMb,
  settingsUses = new Map(),
  photoUses = new Map(),
  mayEdit,
}: {
  list: MediaListResult;
  query: MediaListQuery;
  notice: string | null;
  maxMb: number;
  /** What Site settings use images as (media.ts settingsUsesOf), by hash. */
  settingsUses?: ReadonlyMap<string, readonly string[]>;
  /** The authors whose profile photo each image is (media.ts photoUses), by hash. */
  photoUses?: ReadonlyMap<string, readonly { slug: string; name: string }[]>;
  /** The reader may change images (media.edit): their alt text and delete forms are shown. */
  mayEdit: boolean;
}) {
  const text = notice === null ? undefined : NOTICES.get(notice);
  const searching = query.q.trim() !== '';
  return (
    <section className="media-library" aria-labelledby="media-title">
      <title>Media · Folio preview</title>
      <h1 id="media-title">Media</h1>
      <p>
        <a href={PREVIEW_DASHBOARD}>Back to the pages</a>
      </p>
      {text ? (
        <p role="status" className="notice">
          {text}
        </p>
      ) : null}
      <UploadForm maxMb={maxMb} />
      <search>
        <form method="get" action="/preview" className="dashboard-filters">
          <input type="hidden" name="media" value="" />
          <label>
            Search
            <input
              type="search"
              name="q"
              defaultValue={query.q}
              placeholder="File name or alt text"
            />
          </label>
          <button type="submit">Show</button>
        </form>
      </search>
      <p className="dashboard-count" role="status">
        {searching
          ? `${list.matching > MEDIA_MATCHES_COUNTED ? `More than ${MEDIA_MATCHES_COUNTED}` : list.matching} of ${imagesText(list.total)}`
          : imagesText(list.total)}
        {searchIsWordless(query.q)
          ? `: search looks for words and numbers, and “${query.q.trim()}” has none`
          : ''}
      </p>
      {list.items.length === 0 && searching ? (
        <p>
          No image matches. <a href={MEDIA_LIBRARY}>Show every image</a>
        </p>
      ) : null}
      <ul className="media-list">
        {list.items.map((item) => {
          const use = list.uses.get(item.hash);
          return (
            <li key={item.hash} className="media-item">
              <img
                src={thumbnailOf(item)}
                alt={item.alt}
                width={160}
                height={Math.round((160 * item.height) / item.width)}
                loading="lazy"
              />
              <div>
                <p>
                  <strong>{item.filename}</strong> · {item.width} × {item.height} ·{' '}
                  {Math.ceil(item.bytes / 1024)} KB in all · uploaded{' '}
                  <LocalTime iso={item.createdAt} />
                  {item.createdBy ? ` by ${item.createdBy}` : ''}
                </p>
                <p>
                  <code className="markdown-snippet">{imageMarkdown(item.hash, item.alt)}</code>
                </p>
                <p>
                  <UsedOn use={use} />
                </p>
                {settingsUses.get(item.hash)?.length ? (
                  <p>
                    In <a href="/preview?settings">Site settings</a>: the site’s{' '}
                    {settingsUses.get(item.hash)?.join(' and ')}.
                  </p>
                ) : null}
                {photoUses.get(item.hash)?.length ? (
                  <p>
                    Profile photo of{' '}
                    {photoUses.get(item.hash)?.map((author, index) => (
                      <span key={author.slug}>
                        {index > 0 ? ', ' : ''}
                        <a href={`/${author.slug}`}>{author.name}</a>
                      </span>
                    ))}
                    .
                  </p>
                ) : null}
                {mayEdit ? (
                  <MediaItemForm
                    hash={item.hash}
                    alt={item.alt}
                    inUse={
                      (use?.pages ?? 0) > 0 ||
                      (settingsUses.get(item.hash)?.length ?? 0) > 0 ||
                      (photoUses.get(item.hash)?.length ?? 0) > 0
                    }
                  />
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
      {list.previous || list.next ? (
        <nav className="pager" aria-label="More images">
          {list.previous ? (
            <a href={pageHref(query, list.previous)} rel="prev">
              Newer
            </a>
          ) : null}{' '}
          {list.next ? (
            <a href={pageHref(query, list.next)} rel="next">
              Earlier
            </a>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
