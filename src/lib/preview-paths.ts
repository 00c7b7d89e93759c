// Owns addresses inside the preview: every internal link there stays inside preview.
import { HOME_SLUG } from './slug';

export function previewPath(slug: string): '/preview' | `/preview/${string}` {
  return slug === HOME_SLUG ? '/preview' : `/preview/${slug}`;
}

export function publicPath(slug: string): `/${string}` {
  return slug === HOME_SLUG ? '/' : `/${slug}`;
}

/** Points root-relative links of rendered Markdown at their preview versions. */
export function rewriteLinksForPreview(html: string): string {
  return html.replace(/href="\/(?!\/|preview(?:[/"?#]))([^"]*)"/g, (_match, rest: string) =>
    rest === '' || rest.startsWith('?') || rest.startsWith('#')
      ? `href="/preview${rest}"`
      : `href="/preview/${rest}"`,
  );
}
