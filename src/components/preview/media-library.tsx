// The media library at /preview?media: upload, every image with where it is used, its alt
// text (editable), the Markdown that shows it, and delete — refused while visitors see it.
import { formatUtc } from '../../lib/content/dates';
import { PREVIEW_DASHBOARD, previewPath } from '../../lib/http/routes';
import type { MediaItem } from '../../lib/media/media-refs';
import { imageMarkdown, mediaPath } from '../../lib/media/media-refs';
import { MediaItemForm } from './media-item-form';
import { UploadForm } from './upload-form';

const NOTICES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'media-saved': 'Alt text saved. Pages show it when they are next saved or published.',
    'media-deleted': 'Image deleted.',
    'media-in-use':
      'Not deleted: a page uses this image (listed with it). Take it out of the page (and publish it), then delete the image.',
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

export function MediaLibrary({
  items,
  usage,
  notice,
  maxMb,
}: {
  items: readonly MediaItem[];
  usage: ReadonlyMap<string, { published: string[]; draft: string[] }>;
  notice: string | null;
  maxMb: number;
}) {
  const text = notice === null ? undefined : NOTICES.get(notice);
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
      <p className="dashboard-count">{items.length === 1 ? '1 image' : `${items.length} images`}</p>
      <ul className="media-list">
        {items.map((item) => {
          const used = usage.get(item.hash) ?? { published: [], draft: [] };
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
                  {Math.ceil(item.bytes / 1024)} KB in all · uploaded {formatUtc(item.createdAt)}
                  {item.createdBy ? ` by ${item.createdBy}` : ''}
                </p>
                <p>
                  <code className="markdown-snippet">{imageMarkdown(item.hash, item.alt)}</code>
                </p>
                <p>
                  {used.published.length + used.draft.length === 0 ? (
                    'Not used on any page.'
                  ) : (
                    <>
                      Used on{' '}
                      {[
                        ...used.published.map((slug) => ({ slug, draft: false })),
                        ...used.draft.map((slug) => ({ slug, draft: true })),
                      ].map((use, index) => (
                        <span key={`${use.slug}-${use.draft}`}>
                          {index > 0 ? ', ' : ''}
                          <a href={previewPath(use.slug)}>{`/${use.slug}`}</a>
                          {use.draft ? ' (draft)' : ' (published)'}
                        </span>
                      ))}
                    </>
                  )}
                </p>
                <MediaItemForm
                  hash={item.hash}
                  alt={item.alt}
                  inUse={used.published.length + used.draft.length > 0}
                />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
