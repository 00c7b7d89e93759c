// Owns the sitemap (sitemaps.org protocol 0.9): which addresses it has and what each holds.
// A file may list at most 50 000 URLs and weigh at most 50 MB. A site that fits in one file
// (nearly every site) gets one `<urlset>` at /sitemap.xml, as before: one request for a
// crawler, and the address robots.txt names. A larger one gets a sitemap index there, naming
// its files at /sitemap.xml?page=1, ?page=2… — the same route (no new page route, no slug
// taken). The index needs only the count; a file's rows are read from the published-order
// index by keyset after the page where the file before it ends (read-model.ts). The files are
// cached and answered 304 like pages (file-cache.ts).
import 'server-only';
import type { SitemapEntry, SitemapKey } from '../content/types';
import type { BuiltFile } from './file-cache';
import { MAX_SLUG_LENGTH, publicPath } from './routes';
import { escapeXml } from './xml';

/** The protocol's limits for one file (sitemaps.org: 50 000 URLs, 50 MB uncompressed). */
export const SITEMAP_LIMITS = { urls: 50_000, bytes: 50 * 1024 * 1024 } as const;
export type SitemapLimits = { urls: number; bytes: number };

/** The query parameter that names one file of a sitemap index. */
export const SITEMAP_PART_PARAM = 'page';

/** What the sitemap reads (the content store's). */
export type SitemapSource = {
  publishedCount(): Promise<number>;
  sitemapKeyAt(position: number): Promise<SitemapKey | null>;
  sitemapEntries(after: SitemapKey | null, limit: number): Promise<SitemapEntry[]>;
  /** Topics' and authors' pages (issue 27), newest first, at most `limit`. */
  sitemapListingEntries(limit: number): Promise<SitemapEntry[]>;
};

const CONTENT_TYPE = 'application/xml; charset=utf-8';
const URLSET_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
const URLSET_TAIL = '</urlset>\n';
const INDEX_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
const INDEX_TAIL = '</sitemapindex>\n';
/** A lastmod as Folio stores it (ISO 8601 in UTC, milliseconds): every line's is this long. */
const LASTMOD_LENGTH = '2026-01-01T00:00:00.000Z'.length;

function urlLine(origin: string, entry: SitemapEntry): string {
  const loc = escapeXml(origin + publicPath(entry.slug));
  return `  <url><loc>${loc}</loc><lastmod>${escapeXml(entry.publishedAt)}</lastmod></url>\n`;
}

/**
 * How many URLs one file takes for `origin`: the protocol's count, or fewer when its longest
 * possible line (the longest slug) times that count would pass the byte limit — only for an
 * origin thousands of characters long (a Host header as asked, without SITE_URL).
 */
export function urlsPerFile(origin: string, limits: SitemapLimits = SITEMAP_LIMITS): number {
  const longest = Buffer.byteLength(
    urlLine(origin, { slug: 'x'.repeat(MAX_SLUG_LENGTH), publishedAt: '' }),
  );
  const room = limits.bytes - URLSET_HEAD.length - URLSET_TAIL.length;
  return Math.max(1, Math.min(limits.urls, Math.floor(room / (longest + LASTMOD_LENGTH))));
}

/**
 * Which file a request asks for: null for /sitemap.xml itself, a number for `?page=N`, or
 * 'invalid' (a 404) for anything else in that parameter. Other parameters are ignored, as a
 * page ignores them.
 */
export function sitemapPartOf(url: URL): number | null | 'invalid' {
  const asked = url.searchParams.getAll(SITEMAP_PART_PARAM);
  if (asked.length === 0) return null;
  const [value] = asked;
  return asked.length === 1 && value !== undefined && /^[1-9][0-9]{0,5}$/.test(value)
    ? Number(value)
    : 'invalid';
}

/** The address of one file of the index. */
export function sitemapPartUrl(origin: string, part: number): string {
  return `${origin}/sitemap.xml?${SITEMAP_PART_PARAM}=${part}`;
}

/**
 * The sitemap file `part` names (null: /sitemap.xml itself, the only file or the index), or
 * null when there is no such file.
 */
export async function buildSitemap(
  source: SitemapSource,
  origin: string,
  part: number | null,
  limits: SitemapLimits = SITEMAP_LIMITS,
): Promise<BuiltFile> {
  const perFile = urlsPerFile(origin, limits);
  const pages = await source.publishedCount();
  // Topics' and authors' pages: with the pages when all fit in one file, else a file of their
  // own after the pages' files (one file of them: a site has far fewer than 50 000).
  const listings = await source.sitemapListingEntries(perFile);
  const pageFiles = Math.max(1, Math.ceil(pages / perFile));
  const oneFile = pages + listings.length <= perFile;
  const files = oneFile ? 1 : pageFiles + (listings.length > 0 ? 1 : 0);
  if (part === null && files > 1) {
    let body = INDEX_HEAD;
    for (let n = 1; n <= files; n++)
      body += `  <sitemap><loc>${escapeXml(sitemapPartUrl(origin, n))}</loc></sitemap>\n`;
    return { body: body + INDEX_TAIL, contentType: CONTENT_TYPE };
  }
  const n = part ?? 1;
  if (n > files) return null;
  let body = URLSET_HEAD;
  if (!oneFile && n === pageFiles + 1) {
    for (const entry of listings) body += urlLine(origin, entry);
    return { body: body + URLSET_TAIL, contentType: CONTENT_TYPE };
  }
  // A later file starts after the last page of the one before it.
  const after = n === 1 ? null : await source.sitemapKeyAt((n - 1) * perFile);
  if (n > 1 && after === null) return null;
  const entries = await source.sitemapEntries(after, perFile);
  for (const entry of entries) body += urlLine(origin, entry);
  if (oneFile) for (const entry of listings) body += urlLine(origin, entry);
  return { body: body + URLSET_TAIL, contentType: CONTENT_TYPE };
}
