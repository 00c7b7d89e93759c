// The editor's "Search and sharing" section (issue 27): meta title and description with live
// counts, the social image from the library, a canonical address, "Hide from search engines",
// and beside them how the page will look in a search result and on a share card. A <details>
// closed by default (open when one of its fields was refused, so the message is seen); a plain
// part of the form without JavaScript, saved with Save or Publish like the topics.

import { characterCount } from '../../lib/content/field-limits';
import {
  canonicalProblem,
  META_DESCRIPTION_ADVICE,
  META_DESCRIPTION_MAX,
  META_TITLE_ADVICE,
  META_TITLE_MAX,
  socialImageAdvice,
  socialImageProblem,
  usableForCard,
} from '../../lib/content/seo-fields';
import type { EditorFormValues } from '../../lib/editor/forms';
import { HOME_SLUG } from '../../lib/http/routes';
import { FieldError } from './editor/field-error';
import { type CardImage, SeoPreviews } from './seo-previews';

/** A library image the social image control offers. */
export type SocialImageChoice = {
  hash: string;
  alt: string;
  /** A small copy, for the card preview. */
  thumbnail: string;
  width: number;
  height: number;
};

/** What the previews need from the site (the editor screen reads it; page-of.tsx). */
export type SharingContext = {
  siteTitle: string;
  accent: string;
  /** The site's origin, as a search result prints addresses ("https://example.com"). */
  origin: string;
  /** Site settings' default social image, when it is set and still in the library. */
  defaultImage: { src: string; width: number; height: number; alt: string } | null;
  /** The library's newest images, and the page's chosen one wherever it is. */
  images: readonly SocialImageChoice[];
};

export const SEO_FIELDS = [
  'seoTitle',
  'seoDescription',
  'seoImage',
  'seoCanonical',
  'seoNoindex',
] as const;

// pictureHtml (media-refs.ts) writes an uploaded image's <img> with src, alt, width and height
// in this order; the same reading as the server's share-image.ts, on the live preview's HTML.
const UPLOADED_IMG =
  /<img src="(\/media\/[0-9a-f]{32}\/[\w.-]+)" alt="([^"]*)" width="(\d+)" height="(\d+)"/;

/** The first uploaded image in some HTML (the live preview's), as the card would take it. */
export function firstImageOfHtml(
  html: string,
): { src: string; alt: string; width: number; height: number } | null {
  const match = UPLOADED_IMG.exec(html);
  if (!match) return null;
  const [, src = '', alt = '', width = '0', height = '0'] = match;
  const text = alt
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
  return {
    src,
    alt: text.replace(/&amp;/g, '&'),
    width: Number(width),
    height: Number(height),
  };
}

/** The image the share card will use, in page-meta.tsx's order. */
export function cardImageOf(
  chosen: SocialImageChoice | undefined,
  first: ReturnType<typeof firstImageOfHtml>,
  defaultImage: SharingContext['defaultImage'],
): CardImage {
  if (chosen && usableForCard(chosen.width, chosen.height))
    return {
      source: 'chosen',
      src: chosen.thumbnail,
      width: chosen.width,
      height: chosen.height,
      alt: chosen.alt,
    };
  if (first && usableForCard(first.width, first.height)) return { source: 'first', ...first };
  if (defaultImage) return { source: 'default', ...defaultImage };
  return { source: 'generated' };
}

export function SeoSection({
  values,
  update,
  errorOf,
  sharing,
  previewHtml,
}: {
  values: EditorFormValues;
  update: (field: keyof EditorFormValues, value: string) => void;
  errorOf: (name: string) => string | undefined;
  sharing: SharingContext;
  /** The page's HTML as the live preview has it: its first image. */
  previewHtml: string;
}) {
  const title = values.seoTitle ?? '';
  const description = values.seoDescription ?? '';
  const image = values.seoImage ?? '';
  const canonical = values.seoCanonical ?? '';
  const noindex = values.seoNoindex === 'on';
  const chosen = sharing.images.find((item) => item.hash === image);
  const imageProblem = chosen ? socialImageProblem(chosen.width, chosen.height) : null;
  const imageAdvice = chosen ? socialImageAdvice(chosen.width, chosen.height) : null;
  const first = firstImageOfHtml(previewHtml);
  // A canonical address being typed: its problem shown at once, as the server will say it.
  const typedProblem = canonical.trim() === '' ? null : canonicalProblem(canonical.trim());
  const refused = SEO_FIELDS.some((name) => errorOf(name));
  const invalid = (name: string) =>
    errorOf(name) ? { 'aria-invalid': true, 'aria-describedby': `${name}-error` } : {};
  const shownTitle = title.trim() || values.title.trim() || 'Untitled';
  const shownDescription = description.trim() || values.summary.trim();
  const address =
    canonical.trim() !== '' && typedProblem === null
      ? canonical.trim().startsWith('/')
        ? `${sharing.origin}${canonical.trim()}`
        : canonical.trim()
      : `${sharing.origin}/${values.slug === HOME_SLUG ? '' : values.slug}`;
  return (
    <details className="seo-section" open={refused || undefined} data-testid="seo-section">
      <summary>Search and sharing</summary>
      <div className="seo-layout">
        <div className="seo-fields">
          <label>
            Meta title
            <input
              name="seoTitle"
              value={title}
              onChange={(event) => update('seoTitle', event.target.value)}
              maxLength={META_TITLE_MAX}
              placeholder={values.title}
              {...invalid('seoTitle')}
            />
            <span className="hint" data-testid="seo-title-count">
              {characterCount(title)}/{META_TITLE_ADVICE}: search results show about{' '}
              {META_TITLE_ADVICE} characters, the site’s name included. Empty: the page’s title.
            </span>
            <FieldError name="seoTitle" message={errorOf('seoTitle')} />
          </label>
          <label>
            Meta description
            <textarea
              name="seoDescription"
              value={description}
              onChange={(event) => update('seoDescription', event.target.value)}
              rows={3}
              maxLength={META_DESCRIPTION_MAX}
              placeholder={values.summary}
              {...invalid('seoDescription')}
            />
            <span className="hint" data-testid="seo-description-count">
              {characterCount(description)}/{META_DESCRIPTION_ADVICE}: search results show about{' '}
              {META_DESCRIPTION_ADVICE}. Empty: the page’s summary.
            </span>
            <FieldError name="seoDescription" message={errorOf('seoDescription')} />
          </label>
          <label>
            Social image
            <select
              name="seoImage"
              value={image}
              onChange={(event) => update('seoImage', event.target.value)}
              {...invalid('seoImage')}
            >
              <option value="">First image of the page (default)</option>
              {sharing.images.map((item) => (
                <option key={item.hash} value={item.hash}>
                  {`${item.alt || `Image ${item.hash.slice(0, 8)}`} — ${item.width} × ${item.height}${
                    usableForCard(item.width, item.height) ? '' : ' (too small for a card)'
                  }`}
                </option>
              ))}
            </select>
            {imageProblem && !errorOf('seoImage') ? (
              <span className="field-error" role="alert">
                {imageProblem}
              </span>
            ) : null}
            {imageAdvice ? <span className="hint">{imageAdvice}</span> : null}
            <FieldError name="seoImage" message={errorOf('seoImage')} />
            <span className="hint">
              From the media library (upload there first). Without one: the first image of the page
              at least 200 × 200 px, else the site’s default, else a drawn card.
            </span>
          </label>
          <label>
            Canonical address
            <input
              name="seoCanonical"
              value={canonical}
              onChange={(event) => update('seoCanonical', event.target.value)}
              inputMode="url"
              autoComplete="off"
              placeholder="https://example.com/original or /other-page"
              {...invalid('seoCanonical')}
            />
            {typedProblem && !errorOf('seoCanonical') ? (
              <span className="field-error">{typedProblem}</span>
            ) : null}
            <FieldError name="seoCanonical" message={errorOf('seoCanonical')} />
            <span className="hint">
              Only when this text’s original lives at another address. Empty: this page’s own.
            </span>
          </label>
          <label className="inline-choice seo-noindex">
            <input
              type="checkbox"
              name="seoNoindex"
              value="on"
              checked={noindex}
              onChange={(event) => update('seoNoindex', event.target.checked ? 'on' : '')}
            />{' '}
            Hide from search engines
            <span className="hint">
              Visitors and the site’s own search still find it; search engines are asked not to list
              it, and it leaves the sitemap.
            </span>
          </label>
          <span className="hint">Saved with Save or Publish, published with the text.</span>
        </div>
        <SeoPreviews
          title={shownTitle}
          description={shownDescription}
          siteTitle={sharing.siteTitle}
          address={address}
          noindex={noindex}
          image={cardImageOf(imageProblem ? undefined : chosen, first, sharing.defaultImage)}
          accent={sharing.accent}
        />
      </div>
    </details>
  );
}
