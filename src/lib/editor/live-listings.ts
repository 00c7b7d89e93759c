// Owns the listing directives in the editor's live pane (issue 27's leftovers): the pane shows
// HTML strings the server sends block by block (save-page.ts livePreviewOf), so a directive's
// block is replaced here by the listing the page will show — the same lookup as the page's
// render (content/listings.ts: published posts only) and the same HTML as its component
// (components/article-body.tsx DirectiveListingView, ListingProblem; live-listings.test.ts
// compares the two), written as a string because the pane inserts HTML, not React.
import 'server-only';
import { formatDay } from '../content/dates';
import {
  type BodyPart,
  hasListingDirective,
  splitAtDirectives,
} from '../content/listing-directive';
import { resolveListing } from '../content/listings';
import type { PostSummary } from '../content/types';
import { previewPath } from '../http/routes';
import type { LivePreview } from './forms';

type PathOf = (slug: string) => `/${string}`;

/** Text and attribute values escaped as React escapes them (the component's HTML, byte for byte). */
function escapeAsReact(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[ch] ?? ch,
  );
}

/** The byline's HTML (components/byline.tsx): "By A", "By A and B", "By A, B and C". */
function bylineHtml(authors: readonly { name: string; path: string }[]): string {
  if (authors.length === 0) return '';
  const names = authors.map((author, index) => {
    const joint = index === 0 ? '' : index === authors.length - 1 ? ' and ' : ', ';
    return `${joint}<a href="${escapeAsReact(author.path)}">${escapeAsReact(author.name)}</a>`;
  });
  return `<span class="byline">By ${names.join('')}</span>`;
}

/** DirectiveListingView's HTML: the posts a directive lists, nothing for none. */
export function listingHtml(posts: readonly PostSummary[], pathOf: PathOf): string {
  if (posts.length === 0) return '';
  const items = posts.map((post) => {
    const byline = bylineHtml(post.authors.map((a) => ({ name: a.name, path: pathOf(a.slug) })));
    return (
      `<li><a href="${escapeAsReact(pathOf(post.slug))}">${escapeAsReact(post.title)}</a> ` +
      `<time dateTime="${escapeAsReact(post.firstPublishedAt.slice(0, 10))}">${escapeAsReact(formatDay(post.firstPublishedAt))}</time>` +
      (byline ? ` ${byline}` : '') +
      (post.summary ? `<span class="summary">${escapeAsReact(post.summary)}</span>` : '') +
      '</li>'
    );
  });
  return `<ul class="directive-listing">${items.join('')}</ul>`;
}

/** ListingProblem's HTML: why a directive shows nothing to visitors (editors only). */
export function listingProblemHtml(source: string, problem: string): string {
  return `<p class="listing-problem" role="note">This listing is not shown to visitors: ${escapeAsReact(problem)} (<code>${escapeAsReact(source)}</code>)</p>`;
}

async function partHtml(part: BodyPart, pathOf: PathOf): Promise<string> {
  if ('html' in part) return part.html;
  if ('problem' in part) return listingProblemHtml(part.source, part.problem);
  const listing = await resolveListing(part.directive);
  return 'problem' in listing
    ? listingProblemHtml(part.source, listing.problem)
    : listingHtml(listing.posts, pathOf);
}

/**
 * Preview HTML (links already made preview links) with its directives rendered as the saved
 * preview renders them; `before` directives come ahead of it on the page.
 */
export async function withListings(
  html: string,
  { before = 0, pathOf = previewPath }: { before?: number; pathOf?: PathOf } = {},
): Promise<string> {
  if (!hasListingDirective(html)) return html;
  const parts = splitAtDirectives(html, { before });
  return (await Promise.all(parts.map((part) => partHtml(part, pathOf)))).join('');
}

/**
 * The live preview's blocks with their directives rendered. A block holding a directive gets
 * an id of what it renders to (a post published meanwhile changes it, so the pane asks for
 * it again), and its HTML is sent unless the pane has that id (`have`). Its raw id is never
 * one the pane holds, so livePreviewOf always sends the raw block to render.
 */
export async function livePreviewWithListings(
  preview: LivePreview,
  have: readonly string[],
): Promise<LivePreview> {
  const shown = new Set(have);
  const ids: string[] = [];
  const html: Record<string, string> = {};
  let directives = 0;
  for (const id of preview.ids) {
    const raw = preview.html[id];
    if (raw === undefined || !hasListingDirective(raw)) {
      ids.push(id);
      if (raw !== undefined) html[id] = raw;
      continue;
    }
    const rendered = await withListings(raw, { before: directives });
    directives += splitAtDirectives(raw).filter((part) => !('html' in part)).length;
    const renderedId = `l${Bun.hash(rendered).toString(36)}`;
    ids.push(renderedId);
    if (!shown.has(renderedId)) html[renderedId] = rendered;
  }
  return { ids, html };
}
