// The page as a search result and as a share card shows it (issue 27), drawn from the
// editor's values: rendered by the server with the draft's values (so it is there without
// JavaScript after a save) and again by the editor on every keystroke. Only what the public
// page's <head> will say (page-meta.tsx): the same title rule, the same image order.
import { META_DESCRIPTION_ADVICE, META_TITLE_ADVICE, snippet } from '../../lib/content/seo-fields';

/** The image a share card will show, as the editor can tell it (see seoCardImage). */
export type CardImage =
  | {
      source: 'chosen' | 'first' | 'default';
      src: string;
      width: number;
      height: number;
      alt: string;
    }
  | { source: 'generated' };

/** Words for where the card's image comes from. */
const SOURCE_WORDS: Record<CardImage['source'], string> = {
  chosen: 'the image chosen below',
  first: 'the first image of the page',
  default: 'the site’s default social image (Site settings)',
  generated: 'a card Folio draws from the title (the page has no image large enough)',
};

export function SeoPreviews({
  title,
  description,
  siteTitle,
  address,
  noindex,
  image,
  accent,
}: {
  /** The title the page will carry (meta title, else the page's title). */
  title: string;
  description: string;
  siteTitle: string;
  /** The page's address as a search result prints it (the canonical one when overridden). */
  address: string;
  noindex: boolean;
  image: CardImage;
  /** The site's accent: the generated card's colour. */
  accent: string;
}) {
  const fullTitle = `${title} · ${siteTitle}`;
  let host = address;
  let path = '';
  try {
    const url = new URL(address);
    host = url.host;
    path = url.pathname === '/' ? '' : url.pathname.split('/').filter(Boolean).join(' › ');
  } catch {
    // A path without SITE_URL: shown as it is.
  }
  return (
    <div className="seo-previews" data-testid="seo-previews">
      <figure className="seo-preview">
        <figcaption>In a search result</figcaption>
        {noindex ? (
          <p className="seo-hidden" data-testid="seo-hidden">
            Hidden from search engines: this page asks not to be listed, and is left out of the
            sitemap.
          </p>
        ) : null}
        <div className="seo-snippet" aria-hidden={noindex || undefined}>
          <span className="seo-snippet-site">{siteTitle}</span>
          <span className="seo-snippet-url">
            {host}
            {path ? ` › ${path}` : ''}
          </span>
          <span className="seo-snippet-title" data-testid="seo-snippet-title">
            {snippet(fullTitle, META_TITLE_ADVICE)}
          </span>
          <span className="seo-snippet-description" data-testid="seo-snippet-description">
            {description
              ? snippet(description, META_DESCRIPTION_ADVICE)
              : 'No description: search engines will pick text from the page.'}
          </span>
        </div>
      </figure>
      <figure className="seo-preview">
        <figcaption>On a social card</figcaption>
        <div className="seo-card" data-testid="seo-card">
          {image.source === 'generated' ? (
            <div
              className="seo-card-generated"
              style={{ background: accent }}
              data-testid="seo-card-generated"
            >
              <span>{snippet(title, 140)}</span>
              <small>{siteTitle}</small>
            </div>
          ) : (
            <img
              className="seo-card-image"
              src={image.src}
              alt={image.alt}
              width={image.width}
              height={image.height}
              data-testid="seo-card-image"
            />
          )}
          <div className="seo-card-text">
            <span className="seo-card-host">{host}</span>
            <span className="seo-card-title" data-testid="seo-card-title">
              {snippet(title, 90)}
            </span>
            {description ? (
              <span className="seo-card-description">{snippet(description, 120)}</span>
            ) : null}
          </div>
        </div>
        <span className="hint" data-testid="seo-card-source">
          Image: {SOURCE_WORDS[image.source]}.
        </span>
      </figure>
    </div>
  );
}
