// Owns topics (issue 27): finding or creating them by the names an editor types, their slugs
// (in the pages' namespace: a topic never takes a page's address nor a page a topic's), the
// editors' topics screen (list with counts, edit name, slug and introduction) and the public
// read of one topic, which exists for visitors only while a published post has it. A renamed
// topic's old slug redirects like a page's (read-model.ts findRedirect).
import 'server-only';
import { EVERYTHING, pagesChanged } from '../data/content-changes';
import { type Query, sqlTemplate } from '../data/db';
import { renderMarkdown } from '../markdown/markdown';
import { mediaByHashes, mediaHashesIn } from '../media/media-refs';
import { authorAt } from './authors';
import { ContentError } from './errors';
import { DIRECTIVE_NOT_IN_INTRODUCTION, hasListingDirective } from './listing-directive';
import { type TopicFields, topicFieldsSchema, topicSlugFromName } from './post-fields';
import { HOME_SLUG, MAX_SLUG_LENGTH, validateNewSlug } from './slugs';
import type { StoreContext } from './store-context';
import { parseTopicIds } from './topic-ids';
import type { Topic, TopicListing } from './types';

export { parseTopicIds };

type TopicRow = {
  id: number | string;
  name: string;
  slug: string;
  intro: string;
  intro_html: string;
};

function toTopic(row: TopicRow): Topic {
  return {
    id: Number(row.id),
    name: row.name,
    slug: row.slug,
    intro: row.intro,
    introHtml: row.intro_html,
  };
}

/** The topic at `slug`, if one is there (any topic: editors' reads and slug checks). */
export async function topicBySlugIn(q: Query, slug: string): Promise<Topic | null> {
  const [row] = await q<TopicRow>`
    SELECT id, name, slug, intro, intro_html FROM topics WHERE slug = ${slug}`;
  return row ? toTopic(row) : null;
}

/** Refuses a page's new address when a topic holds it: the two share one namespace. */
export async function refuseTopicSlug(q: Query, slug: string): Promise<void> {
  const topic = await topicBySlugIn(q, slug);
  if (topic)
    throw new ContentError(
      'slug-taken',
      `The topic “${topic.name}” has the address /${slug}; choose another for this page.`,
    );
}

/** Whether a page or a topic has `slug` now, or no page may take it (reserved, home). */
async function slugUnavailable(q: Query, slug: string): Promise<string | null> {
  if (slug === HOME_SLUG) return `“${slug}” is the home page's.`;
  const problem = validateNewSlug(slug);
  if (problem) return problem;
  const [page] = await q<{ id: number }>`SELECT id FROM pages WHERE slug = ${slug}`;
  if (page) return `A page has the address /${slug}.`;
  const topic = await topicBySlugIn(q, slug);
  if (topic) return `The topic “${topic.name}” has the address /${slug}.`;
  if (await authorAt(q, slug)) return `An author’s page is at /${slug}.`;
  // An old address of a renamed page, or one an editor redirects, sends visitors elsewhere
  // before any topic is looked for (hostile pass: a topic given /style-guide, a renamed
  // page's old address, was unreachable).
  const [renamed] = await q<{ page_id: number }>`
    SELECT page_id FROM slug_history WHERE old_slug = ${slug}`;
  if (renamed) return `/${slug} is an old address of a renamed page.`;
  const [redirected] = await q<{ target: string }>`
    SELECT target FROM redirects WHERE from_path = ${`/${slug}`}`;
  if (redirected) return `/${slug} is redirected.`;
  return null;
}

/**
 * A free slug for a new topic called `name`: its own when free, else the first free of
 * `<slug>-2`, `<slug>-3`… (a topic named like a page takes the next address, it is never
 * refused: the editor typed a name, not an address, and can change it on the topics screen).
 */
async function freeTopicSlug(q: Query, name: string): Promise<string> {
  const base = topicSlugFromName(name);
  if ((await slugUnavailable(q, base)) === null) return base;
  for (let n = 2; n < 1000; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
    if ((await slugUnavailable(q, candidate)) === null) return candidate;
  }
  throw new ContentError('slug-taken', `No free address for the topic “${name}”.`);
}

/**
 * A name without case, accents or width: how two spellings of one topic compare. NFKD, not
 * NFD: a full-width `Ｃａｆｅ` is `Cafe` typed another way (hostile pass 27 made /cafe-2).
 */
function foldedName(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The ids of the topics named (any case, any accents), in the order given; a name no topic
 * has creates the topic, with a free slug and no introduction — unless `refused` says why this
 * saver may not (a Contributor): then nothing is saved, in those words. Inside the caller's
 * transaction.
 */
export async function topicIdsForNames(
  q: Query,
  names: readonly string[],
  at: string,
  { refused }: { refused?: string | undefined } = {},
): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names) {
    const [found] = await q<{ id: number | string }>`
      SELECT id FROM topics WHERE LOWER(name) = LOWER(${name})`;
    if (found) {
      ids.push(Number(found.id));
      continue;
    }
    // "Café" where "cafe" exists is that topic, not a second at /cafe-2 (hostile pass: search
    // reads them as one word, so two topics would split one subject).
    const [alike] = await q<{ id: number | string; name: string }>`
      SELECT id, name FROM topics WHERE slug = ${topicSlugFromName(name)}`;
    if (alike && foldedName(alike.name) === foldedName(name)) {
      ids.push(Number(alike.id));
      continue;
    }
    if (refused !== undefined)
      throw new ContentError(
        'topics-forbidden',
        `There is no topic “${name}” yet. ${refused} Choose one of the topics there are.`,
      );
    const slug = await freeTopicSlug(q, name);
    const [made] = await q<{ id: number | string }>`
      INSERT INTO topics (name, slug, intro, intro_html, created_at, updated_at)
      VALUES (${name}, ${slug}, '', '', ${at}, ${at}) RETURNING id`;
    if (!made) throw new Error('topic insert returned no row');
    ids.push(Number(made.id));
  }
  return [...new Set(ids)];
}

const idQueries = new Map<string, TemplateStringsArray>();
/** `<head> (?, ?, …)<tail>` for `count` values, made once per count. */
export function withIdList(head: string, count: number, tail = ''): TemplateStringsArray {
  const key = `${head}\u0000${count}\u0000${tail}`;
  let template = idQueries.get(key);
  if (!template) {
    template = sqlTemplate([
      `${head} (`,
      ...Array.from({ length: count - 1 }, () => ', '),
      `)${tail}`,
    ]);
    idQueries.set(key, template);
  }
  return template;
}

/** The topics of these ids, in the order given (those that exist). */
export async function topicsByIdsIn(q: Query, ids: readonly number[]): Promise<Topic[]> {
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (wanted.length === 0) return [];
  const rows = await q<TopicRow>(
    withIdList('SELECT id, name, slug, intro, intro_html FROM topics WHERE id IN', wanted.length),
    ...wanted,
  );
  const byId = new Map(rows.map((row) => [Number(row.id), toTopic(row)]));
  return wanted.flatMap((id) => byId.get(id) ?? []);
}

/** Topics the editors' screen shows at a time (by name, then the next ones by name). */
export const TOPICS_PER_SCREEN = 50;
/**
 * Topic names the editor's Topics field suggests: the newest (by creation), read by the primary
 * key with no sort or count (hostile pass 27: 1000 names in every editor). Any existing topic
 * still matches when its name is typed in full.
 */
export const TOPIC_NAMES_SUGGESTED = 200;

type ListedRow = TopicRow & { posts: number | string; updated_at: string };

function toListing(row: ListedRow): TopicListing {
  return { ...toTopic(row), posts: Number(row.posts), updatedAt: row.updated_at };
}

/** `find` as a LIKE pattern for lower-cased text (its own % and _ taken literally). */
function likePattern(find: string): string {
  return `%${find.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

async function renderIntro(q: Query, intro: string): Promise<string> {
  return renderMarkdown(intro, { media: await mediaByHashes(q, mediaHashesIn(intro)) });
}

export function topicStore({ read, write, now, opened }: StoreContext) {
  return {
    /** Topics by id, in the order given (a post's, for its page and the editor). */
    async topicsByIds(ids: readonly number[]): Promise<Topic[]> {
      return read((q) => topicsByIdsIn(q, ids));
    },

    /**
     * The topic at `slug` as visitors may see it: only while at least one published post has
     * it (one probe of the listing's index). Editors' preview shows the same.
     */
    async getPublicTopic(slug: string): Promise<Topic | null> {
      const [row] = await read(
        (q) => q<TopicRow>`
          SELECT t.id, t.name, t.slug, t.intro, t.intro_html FROM topics t
          WHERE t.slug = ${slug}
            AND EXISTS (SELECT 1 FROM published_post_topics pt WHERE pt.topic_id = t.id)`,
      );
      return row ? toTopic(row) : null;
    },

    /** A topic by slug, listed by visitors or not (the editors' screen). */
    async getTopic(slug: string): Promise<Topic | null> {
      return read((q) => topicBySlugIn(q, slug));
    },

    /**
     * One screen of topics by name (keyset: those after the name `after`, read along the
     * unique index on LOWER(name)), narrowed to names or addresses containing `find`, each
     * with how many published posts have it; `next` is the name to continue after.
     */
    async listTopics({
      find = '',
      after = null,
      limit = TOPICS_PER_SCREEN,
    }: {
      find?: string;
      after?: string | null;
      limit?: number;
    } = {}): Promise<{
      rows: TopicListing[];
      next: string | null;
    }> {
      const like = likePattern(find);
      const rows = await read(
        (q) => q<ListedRow>`
          SELECT t.id, t.name, t.slug, t.intro, t.intro_html, t.updated_at,
            (SELECT COUNT(*) FROM published_post_topics pt WHERE pt.topic_id = t.id) AS posts
          FROM topics t
          WHERE (${after === null} OR LOWER(t.name) > LOWER(CAST(${after ?? ''} AS TEXT)))
            AND (${find === ''} OR LOWER(t.name) LIKE ${like} ESCAPE '\\'
                 OR t.slug LIKE ${like} ESCAPE '\\')
          ORDER BY LOWER(t.name) LIMIT ${limit + 1}`,
      );
      const shown = rows.slice(0, limit).map(toListing);
      return { rows: shown, next: rows.length > limit ? (shown.at(-1)?.name ?? null) : null };
    },

    /** How many topics there are (the screen's heading). */
    async countTopics(): Promise<number> {
      const [row] = await read((q) => q<{ n: number | string }>`SELECT COUNT(*) AS n FROM topics`);
      return Number(row?.n ?? 0);
    },

    /** The names the editor's Topics field suggests (TOPIC_NAMES_SUGGESTED, newest first). */
    async suggestedTopicNames(): Promise<string[]> {
      const rows = await read(
        (q) => q<{ name: string }>`
          SELECT name FROM topics ORDER BY id DESC LIMIT ${TOPIC_NAMES_SUGGESTED}`,
      );
      return rows.map((row) => row.name);
    },

    /**
     * Where a renamed topic is now, for `/feed.xml?topic=<old>` (hostile pass 27: subscribers
     * were lost on a rename): the same rule as its page's redirect (read-model.ts findRedirect).
     */
    async renamedTopicSlug(oldSlug: string): Promise<string | null> {
      const [row] = await read(
        (q) => q<{ slug: string }>`
          SELECT t.slug FROM topic_slug_history h JOIN topics t ON t.id = h.topic_id
          WHERE h.old_slug = ${oldSlug}
            AND EXISTS (SELECT 1 FROM published_post_topics pt WHERE pt.topic_id = t.id)
            AND NOT EXISTS (SELECT 1 FROM topics other WHERE other.slug = ${oldSlug})
            AND NOT EXISTS (SELECT 1 FROM pages owner WHERE owner.slug = ${oldSlug}
                            AND owner.published_revision_id IS NOT NULL)`,
      );
      return row?.slug ?? null;
    },

    /**
     * Saves a topic's name, slug and introduction. A new slug must be free (no page, no other
     * topic, not reserved: refused with the reason); the old one then redirects to it. A name
     * another topic has (in any case) is refused.
     */
    async updateTopic(
      id: number,
      input: TopicFields,
      { updatedAt }: { updatedAt?: string } = {},
    ): Promise<Topic> {
      const parsed = topicFieldsSchema.safeParse(input);
      if (!parsed.success)
        throw new ContentError('invalid', parsed.error.issues.map((i) => i.message).join(' '));
      const fields = parsed.data;
      const introHtml = await renderIntro((await opened()).query, fields.intro);
      if (hasListingDirective(introHtml))
        throw new ContentError('invalid', DIRECTIVE_NOT_IN_INTRODUCTION);
      return write(async (q, changed) => {
        const [current] = await q<TopicRow & { updated_at: string }>`
          SELECT id, name, slug, intro, intro_html, updated_at FROM topics WHERE id = ${id}`;
        if (!current) throw new ContentError('not-found', 'This topic no longer exists.');
        // A form made before another tab's save would undo it without a word (hostile pass).
        if (updatedAt !== undefined && updatedAt !== current.updated_at)
          throw new ContentError(
            'conflict',
            'Not saved: this topic was changed since you opened this screen (in another tab?). Your text is kept: reload to see the change, then save again.',
          );
        const [named] = await q<{ id: number | string }>`
          SELECT id FROM topics WHERE LOWER(name) = LOWER(${fields.name}) AND id <> ${id}`;
        if (named) throw new ContentError('invalid', `Another topic is called “${fields.name}”.`);
        const at = now().toISOString();
        if (fields.slug !== current.slug) {
          const problem = await slugUnavailable(q, fields.slug);
          if (problem) throw new ContentError('slug-taken', problem);
          await q`DELETE FROM topic_slug_history WHERE old_slug = ${fields.slug}`;
          await q`
            INSERT INTO topic_slug_history (old_slug, topic_id, renamed_at)
            VALUES (${current.slug}, ${id}, ${at})
            ON CONFLICT (old_slug) DO UPDATE SET topic_id = excluded.topic_id,
              renamed_at = excluded.renamed_at`;
        }
        await q`UPDATE topics SET name = ${fields.name}, slug = ${fields.slug},
                intro = ${fields.intro}, intro_html = ${introHtml}, updated_at = ${at}
                WHERE id = ${id}`;
        // Its name and address are on every post that has it (and in listings): everything.
        // Its introduction is on its own page only.
        if (fields.name !== current.name || fields.slug !== current.slug) await changed(EVERYTHING);
        else if (fields.intro !== current.intro) await changed(pagesChanged(current.slug));
        return { id, name: fields.name, slug: fields.slug, intro: fields.intro, introHtml };
      });
    },
  };
}
