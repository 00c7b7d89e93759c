// Owns the rules for what makes a page a post (issue 27): its kind, the topics an editor types
// for it (names, comma separated), how many authors it may name, and a topic's own fields. Shared by the store, the forms and
// the CLI. Browser-safe: nothing here may import server-only modules.
import { z } from 'zod';
import { cleanLine, lineText, proseText } from './clean-text';
import { isValidSlug, MAX_SLUG_LENGTH, slugFromTitle } from './slugs';

export const PAGE_KINDS = ['post', 'page'] as const;
/** A post is dated writing, listed and in the feed; a page (About, Contact) is timeless. */
export type PageKind = (typeof PAGE_KINDS)[number];

/** What a page made from now on is, unless its editor says otherwise (Ghost's default). */
export const NEW_PAGE_KIND: PageKind = 'post';

export function isPageKind(value: unknown): value is PageKind {
  return value === 'post' || value === 'page';
}

export const TOPIC_NAME_MAX = 60;
/** Topics one post may carry: a listing of a post's topics stays one line or two. */
export const TOPICS_PER_POST_MAX = 20;
export const TOPIC_INTRO_MAX = 20_000;
/** Authors one post may name: a byline stays one line. */
export const AUTHORS_PER_POST_MAX = 10;
/** The most authors the editor's Authors control offers (by name). */
export const AUTHORS_LISTED_MAX = 100;

/**
 * The topic names an editor typed, comma separated: each cleaned as a one-line field, spaces
 * collapsed, empty ones dropped, and the same name twice (in any case) kept once. A name too
 * long or too many names is an error for the field, naming the limit.
 */
export function parseTopicNames(text: string): { names: string[] } | { error: string } {
  const names: string[] = [];
  const seen = new Set<string>();
  // Read no further than a field of the most names of the longest length could be.
  const bounded = text.slice(0, (TOPIC_NAME_MAX + 2) * (TOPICS_PER_POST_MAX + 1) * 4);
  for (const part of bounded.split(',')) {
    const name = cleanLine(part).replace(/\s+/g, ' ').trim();
    if (name === '') continue;
    if (name.length > TOPIC_NAME_MAX)
      return { error: `A topic name has at most ${TOPIC_NAME_MAX} characters.` };
    const problem = topicNameProblem(name);
    if (problem) return { error: problem };
    const key = name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    names.push(name);
    if (names.length > TOPICS_PER_POST_MAX)
      return { error: `A post has at most ${TOPICS_PER_POST_MAX} topics.` };
  }
  if (text.length > bounded.length)
    return { error: `A post has at most ${TOPICS_PER_POST_MAX} topics.` };
  return { names };
}

/**
 * Why `name` cannot name a topic, or null: the one rule for the editor's Topics field and the
 * topics screen (hostile pass 27: the screen saved `😀`, which every later save then refused).
 * `---` or `...` names nothing a reader could look for.
 */
export function topicNameProblem(name: string): string | null {
  if (!/[\p{L}\p{N}]/u.test(name))
    return `“${name}” is not a topic name: use at least one letter or digit.`;
  return null;
}

/** The slug a topic's name suggests; a name of no Latin letters or digits suggests "topic". */
export function topicSlugFromName(name: string): string {
  return slugFromTitle(name) || 'topic';
}

/** A topic as the editors' topics screen edits it. */
export const topicFieldsSchema = z.object({
  name: lineText()
    .pipe(z.string().trim())
    .pipe(
      z
        .string()
        .min(1, 'Enter a name.')
        .max(TOPIC_NAME_MAX, `Use at most ${TOPIC_NAME_MAX} characters.`)
        .refine((name) => !name.includes(','), 'A topic name cannot hold a comma.')
        .superRefine((name, ctx) => {
          const problem = topicNameProblem(name);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
    ),
  slug: lineText()
    .pipe(z.string().trim())
    .pipe(
      z
        .string()
        .max(MAX_SLUG_LENGTH, `Use at most ${MAX_SLUG_LENGTH} characters.`)
        .refine(
          isValidSlug,
          'Use lowercase letters, digits and single hyphens, not at the start or end.',
        ),
    ),
  intro: proseText().pipe(
    z
      .string()
      .max(TOPIC_INTRO_MAX, `Use at most ${TOPIC_INTRO_MAX.toLocaleString('en')} characters.`),
  ),
});
export type TopicFields = z.infer<typeof topicFieldsSchema>;
