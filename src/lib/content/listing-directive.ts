// Owns the listing directive (issue 27): a paragraph of its own in a page's Markdown,
// `{{ posts }}`, `{{ posts topic=<slug> limit=<1–20> }}` or `{{ posts author=<slug> }}`, that
// the page shows as a list of the newest published posts (of one topic or author), rendered on the server at request time — the
// stored HTML keeps the paragraph as written (markdown.ts escapes nothing in it), and the
// page's render puts the listing in its place. Pure: parsing only. Browser-safe.
import { isValidSlug } from './slugs';

/** A listing a page asked for: one topic's posts, one author's or everyone's, the newest `limit`. */
export type ListingDirective = { topic: string | null; author: string | null; limit: number };

export const DIRECTIVE_LIMIT_DEFAULT = 5;
export const DIRECTIVE_LIMIT_MAX = 20;
/** Directives one page may hold; more are shown as the mistake they are. */
export const DIRECTIVES_PER_PAGE_MAX = 5;

// The paragraph Markdown makes of the directive: `<p>{{ posts … }}</p>`, nothing else in it.
// Bounded: arguments of at most 200 characters, and no `<` (no markup inside).
const PARAGRAPH_SOURCE = '<p>\\{\\{\\s*posts\\b([^<}]{0,200})\\}\\}</p>';
const PARAGRAPH = new RegExp(PARAGRAPH_SOURCE);

/** A part of a page's HTML: stored HTML as is, or a directive (or why it cannot be one). */
export type BodyPart =
  | { html: string }
  | { directive: ListingDirective; source: string }
  | { problem: string; source: string };

/** What the arguments ask for, or the words for what is wrong with them. */
export function parseDirectiveArguments(text: string): ListingDirective | { problem: string } {
  let topic: string | null = null;
  let author: string | null = null;
  let limit = DIRECTIVE_LIMIT_DEFAULT;
  const given = new Set<string>();
  for (const part of text.trim().split(/\s+/).filter(Boolean)) {
    const [key = '', value, ...rest] = part.split('=');
    if (value === undefined || rest.length > 0)
      return {
        problem: `“${part}” is not name=value (topic=<slug>, author=<slug>, limit=<1–20>).`,
      };
    if (key !== 'topic' && key !== 'author' && key !== 'limit')
      return { problem: `“${key}” is not something a listing takes (topic, author, limit).` };
    // Given twice, which was meant? (hostile pass 27, 11: the last one won, silently.)
    if (given.has(key))
      return {
        problem: `${key} is given twice: a listing takes each of topic, author and limit once.`,
      };
    given.add(key);
    if (key === 'topic') {
      if (!isValidSlug(value)) return { problem: `“${value}” is not a topic's address.` };
      topic = value;
    } else if (key === 'author') {
      if (!isValidSlug(value)) return { problem: `“${value}” is not an author's address.` };
      author = value;
    } else {
      const n = Number(value);
      if (!/^\d+$/.test(value) || n < 1 || n > DIRECTIVE_LIMIT_MAX)
        return { problem: `limit is a number from 1 to ${DIRECTIVE_LIMIT_MAX}, not “${value}”.` };
      limit = n;
    }
  }
  if (topic !== null && author !== null)
    return { problem: 'A listing is of one topic or of one author, not both.' };
  return { topic, author, limit };
}

/** Whether a page's stored HTML holds a listing directive (it then lists posts). */
export function hasListingDirective(html: string): boolean {
  return PARAGRAPH.test(html);
}

/**
 * Why a topic's introduction may not hold a listing (hostile pass 27, 11: it printed as typed).
 * Not rendered there on purpose: a topic's page is rendered again when one of its own posts is
 * published, but a listing of another topic's (or everyone's) posts would stay stale in the
 * render cache — pages with listings are tracked for that (posts.ts listing_pages), topics are
 * not, and tracking them takes a migration. The topic's page lists its posts already.
 */
export const DIRECTIVE_NOT_IN_INTRODUCTION =
  'A listing ({{ posts … }}) goes in a page’s text, not in a topic’s introduction: the topic’s page lists its posts already. Take that line out, or put the listing on a page.';

/**
 * A page's stored HTML without its directives' lines: what a visitor reads of it, the search
 * index's text (hostile pass: a directive's arguments, a draft topic's address among them,
 * showed in search snippets though the page never shows them).
 */
export function withoutDirectives(html: string): string {
  return html.replace(new RegExp(PARAGRAPH_SOURCE, 'g'), ' ');
}

const ESCAPED: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#x27;': "'",
};

/** Text as markdown-it escaped it into HTML, back as typed (hostile pass: shown escaped twice). */
function unescapeText(html: string): string {
  return html.replace(/&(?:amp|lt|gt|quot|#39|#x27);/g, (entity) => ESCAPED[entity] ?? entity);
}

/**
 * A page's stored HTML cut at its directives. `before`: directives the page holds ahead of
 * this HTML (the live pane renders a page block by block, and the page's limit is the page's).
 */
export function splitAtDirectives(
  html: string,
  { before = 0 }: { before?: number } = {},
): BodyPart[] {
  const parts: BodyPart[] = [];
  let at = 0;
  let count = before;
  // A new expression each time: a global one keeps where it stopped between calls.
  for (const match of html.matchAll(new RegExp(PARAGRAPH_SOURCE, 'g'))) {
    const index = match.index ?? 0;
    if (index > at) parts.push({ html: html.slice(at, index) });
    count += 1;
    // The stored HTML's text is escaped (`"` is `&quot;`); the words shown are React's to escape.
    const source = unescapeText(match[0].slice(3, -4));
    const parsed = parseDirectiveArguments(unescapeText(match[1] ?? ''));
    if (count > DIRECTIVES_PER_PAGE_MAX)
      parts.push({ problem: `A page holds at most ${DIRECTIVES_PER_PAGE_MAX} listings.`, source });
    else if ('problem' in parsed) parts.push({ problem: parsed.problem, source });
    else parts.push({ directive: parsed, source });
    at = index + match[0].length;
  }
  if (at < html.length) parts.push({ html: html.slice(at) });
  return parts;
}
