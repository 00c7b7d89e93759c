// Owns authors (issue 27): each person's public profile — name, address, short bio, photo from
// the media library, links — what it may hold, and the store's part: an editor's own profile,
// read and saved. A profile is public only through the posts that name its author (bylines,
// the author's page at `/<slug>`); someone who never published has no public page, and an
// editor's email is never part of it. The address is in the pages' namespace: an author
// cannot take a page's address (nor a page an author's: page-writes.ts asks `authorAt`). A
// changed address leaves the old one redirecting (author_slug_history, migration 29), until a
// page, a topic or another author takes it.
import 'server-only';
import { z } from 'zod';
import { EVERYTHING } from '../data/content-changes';
import type { Query } from '../data/db';
import { MEDIA_ADDRESS } from '../media/media-refs';
import { profileChange } from './author-changes';
import { cleanMultiline, lineText } from './clean-text';
import { ContentError } from './errors';
import { AUTHORS_LISTED_MAX, AUTHORS_PER_POST_MAX } from './post-fields';
import { refuseRedirectSource } from './redirects';
import { validateNewSlug } from './slugs';
import type { StoreContext } from './store-context';
import { withIdList } from './topics';
import { checkWebAddress, noSlashesMessage } from './web-address';

/** How many of an author's earlier addresses still lead to them (the newest). */
export const AUTHOR_OLD_ADDRESSES_KEPT = 3;

export const AUTHOR_NAME_MAX = 100;
export const AUTHOR_BIO_MAX = 600;
export const AUTHOR_LINKS_MAX = 5;

const LINK_MAX = 500;

export type AuthorProfile = {
  id: number;
  slug: string;
  name: string;
  bio: string;
  /** The media library's hash of the photo, or null. */
  photo: string | null;
  links: readonly string[];
  updatedAt: string;
};

export type AuthorInput = {
  slug: string;
  name: string;
  bio: string;
  /** A media hash, `/media/<hash>`, or the Markdown the library gives; '' for none. */
  photo: string;
  /** One address a line. */
  links: string;
};

/** The media hash a photo field names (hash, address or the library's Markdown), or null. */
export function photoHashOf(text: string): string | null {
  const trimmed = text.trim();
  if (/^[0-9a-f]{32}$/.test(trimmed)) return trimmed;
  const address = /\((\/media\/[0-9a-f]{32}[^)\s]*)\)/.exec(trimmed)?.[1] ?? trimmed;
  return MEDIA_ADDRESS.exec(address)?.[1] ?? null;
}

const linkSchema = z
  .string()
  .max(LINK_MAX, `A link has at most ${LINK_MAX} characters.`)
  .superRefine((value, ctx) => {
    // The one rule for another site's address (web-address.ts), in this field's words.
    const checked = checkWebAddress(value);
    if (checked.ok) return;
    ctx.addIssue({
      code: 'custom',
      message:
        checked.problem === 'no-slashes'
          ? noSlashesMessage(value)
          : 'Each link is a full http(s) address, such as https://example.com/me.',
    });
  });

export const authorSchema = z.object({
  name: lineText().pipe(
    z
      .string()
      .trim()
      .min(1, 'Enter the name readers see.')
      .max(AUTHOR_NAME_MAX, `A name has at most ${AUTHOR_NAME_MAX} characters.`),
  ),
  slug: z
    .string()
    .trim()
    .superRefine((slug, context) => {
      const problem = validateNewSlug(slug);
      if (problem) context.addIssue({ code: 'custom', message: `Address: ${problem}` });
    }),
  bio: z
    .string()
    .transform(cleanMultiline)
    .pipe(z.string().trim().max(AUTHOR_BIO_MAX, `A bio has at most ${AUTHOR_BIO_MAX} characters.`)),
  photo: z
    .string()
    .trim()
    .refine(
      (value) => value === '' || photoHashOf(value) !== null,
      'Choose a photo from the media library: paste its address (/media/…) or its Markdown.',
    )
    .transform((value) => (value === '' ? null : photoHashOf(value))),
  links: z
    .string()
    .transform((value) =>
      value
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    )
    .pipe(
      z.array(linkSchema).max(AUTHOR_LINKS_MAX, `At most ${AUTHOR_LINKS_MAX} links, one a line.`),
    ),
});

type AuthorRow = {
  id: number | string;
  slug: string;
  name: string;
  bio: string;
  photo: string | null;
  links: string;
  updated_at: string;
};

const profileOf = (row: AuthorRow): AuthorProfile => {
  let links: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.links);
    if (Array.isArray(parsed))
      links = parsed.filter((link): link is string => typeof link === 'string');
  } catch {
    // A row written by hand: no links rather than a broken page.
  }
  return {
    id: Number(row.id),
    slug: row.slug,
    name: row.name,
    bio: row.bio,
    photo: row.photo,
    links,
    updatedAt: row.updated_at,
  };
};

/** An author as a byline names them: a link to their page. */
export type Byline = { id: number; slug: string; name: string };

/** The authors of these ids, in the order given (those that exist). */
export async function bylinesIn(q: Query, ids: readonly number[]): Promise<Byline[]> {
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (wanted.length === 0) return [];
  const rows = await q<{ id: number | string; slug: string; name: string }>(
    withIdList('SELECT id, slug, name FROM authors WHERE id IN', wanted.length),
    ...wanted,
  );
  const byId = new Map(rows.map((row) => [Number(row.id), { ...row, id: Number(row.id) }]));
  return wanted.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The ids of the authors at these addresses, in the order given; an address no author has is
 * refused in the editor's words (the CLI, an import: the editor's form sends ids it listed).
 */
export async function authorIdsForSlugs(q: Query, slugs: readonly string[]): Promise<number[]> {
  if (slugs.length > AUTHORS_PER_POST_MAX)
    throw new ContentError(
      'invalid-authors',
      `A post names at most ${AUTHORS_PER_POST_MAX} authors.`,
    );
  const ids: number[] = [];
  for (const slug of slugs) {
    const found = await authorAt(q, slug);
    if (!found) throw new ContentError('invalid-authors', `No author is at /${slug}.`);
    ids.push(found.id);
  }
  return [...new Set(ids)];
}

/** The author profile of the editor signed in as `email`, if they made one. */
export async function authorIdOfEditorEmail(q: Query, email: string): Promise<number | null> {
  const [row] = await q<{ id: number | string }>`
    SELECT a.id FROM authors a JOIN editors e ON e.id = a.editor_id WHERE e.email = ${email}`;
  return row ? Number(row.id) : null;
}

/** The author whose address is `slug`, inside the caller's transaction (the pages' writes ask). */
export async function authorAt(q: Query, slug: string): Promise<{ id: number } | null> {
  const [row] = await q<{ id: number | string }>`SELECT id FROM authors WHERE slug = ${slug}`;
  return row ? { id: Number(row.id) } : null;
}

/**
 * Where the author once at `oldSlug` is now, for visitors (`draft`: for editors, who also see
 * draft pages): only while visitors see that author (a published post names them) and nothing
 * holds the address now — a page (a published one, for visitors), a topic with posts, another
 * author. The one rule for their page's redirect (read-model.ts findRedirect) and their feed's.
 */
export async function renamedAuthorSlugIn(
  q: Query,
  oldSlug: string,
  { draft = false }: { draft?: boolean } = {},
): Promise<string | null> {
  // The holders are looked for by `h.old_slug`, not the parameter: correlated, they are read
  // only for a history row, and every request for a page (renamed-pages middleware) that no
  // author ever left costs one primary-key probe (SQLite reads uncorrelated ones first).
  const [row] = await q<{ slug: string }>`
    SELECT a.slug FROM author_slug_history h JOIN authors a ON a.id = h.author_id
    WHERE h.old_slug = ${oldSlug}
      AND EXISTS (SELECT 1 FROM published_post_authors pa WHERE pa.author_id = a.id)
      AND NOT EXISTS (SELECT 1 FROM authors other WHERE other.slug = h.old_slug)
      AND NOT EXISTS (SELECT 1 FROM topics t WHERE t.slug = h.old_slug AND (${draft}
                      OR EXISTS (SELECT 1 FROM published_post_topics pt WHERE pt.topic_id = t.id)))
      AND NOT EXISTS (SELECT 1 FROM pages owner WHERE owner.slug = h.old_slug
                      AND (${draft} OR owner.published_revision_id IS NOT NULL))`;
  return row?.slug ?? null;
}

export function authorsStore({ read, write, now }: StoreContext) {
  return {
    /** The authors an editor may name on a post, by name (at most AUTHORS_LISTED_MAX). */
    async authorChoices(): Promise<Byline[]> {
      const rows = await read(
        (q) => q<{ id: number | string; slug: string; name: string }>`
          SELECT id, slug, name FROM authors ORDER BY LOWER(name), id
          LIMIT ${AUTHORS_LISTED_MAX}`,
      );
      return rows.map((row) => ({ ...row, id: Number(row.id) }));
    },

    /** Authors by id, in the order given (a post's byline). */
    async bylinesByIds(ids: readonly number[]): Promise<Byline[]> {
      return read((q) => bylinesIn(q, ids));
    },

    /**
     * The author at `slug` as visitors may see them: only while a published post names them
     * (one probe of the listing's index). Never their editor's email: the row has none.
     */
    async getPublicAuthor(slug: string): Promise<AuthorProfile | null> {
      const [row] = await read(
        (q) => q<AuthorRow>`
          SELECT a.id, a.slug, a.name, a.bio, a.photo, a.links, a.updated_at FROM authors a
          WHERE a.slug = ${slug}
            AND EXISTS (SELECT 1 FROM published_post_authors pa WHERE pa.author_id = a.id)`,
      );
      return row ? profileOf(row) : null;
    },

    /**
     * The author at `slug`, published posts or not: for the editors' preview of their page
     * (visitors get getPublicAuthor).
     */
    async getAuthor(slug: string): Promise<AuthorProfile | null> {
      const [row] = await read(
        (q) => q<AuthorRow>`
          SELECT id, slug, name, bio, photo, links, updated_at FROM authors WHERE slug = ${slug}`,
      );
      return row ? profileOf(row) : null;
    },

    /**
     * Where the author once at `oldSlug` is now, for `/feed.xml?author=<old>`: the same rule as
     * their page's redirect (renamedAuthorSlugIn).
     */
    async renamedAuthorSlug(oldSlug: string): Promise<string | null> {
      return read((q) => renamedAuthorSlugIn(q, oldSlug));
    },

    /** The editor's own author profile, or null when they have made none. */
    async authorOfEditor(editorId: number): Promise<AuthorProfile | null> {
      const [row] = await read(
        (q) => q<AuthorRow>`
          SELECT id, slug, name, bio, photo, links, updated_at FROM authors
          WHERE editor_id = ${editorId}`,
      );
      return row ? profileOf(row) : null;
    },

    /**
     * Saves the editor's author profile (made on first save). `updatedAt` is what the form
     * showed: a save from a form opened before another tab's save is a ContentError
     * 'conflict'. Refused in the editor's words ('invalid'): a bad field, an address a page or
     * another author has (or a renamed page's or topic's old one), a photo the library does not
     * have. A changed address leaves the old one redirecting here.
     */
    async saveAuthorProfile(
      editorId: number,
      input: AuthorInput,
      {
        updatedAt,
        keepsRedirects = false,
      }: {
        updatedAt?: string | null;
        /** The person may not manage redirects: an editor's redirect's address is not theirs. */
        keepsRedirects?: boolean;
      } = {},
    ): Promise<AuthorProfile> {
      const parsed = authorSchema.safeParse(input);
      if (!parsed.success)
        throw new ContentError('invalid', parsed.error.issues.map((i) => i.message).join(' '));
      const profile = parsed.data;
      return write(async (q, changed) => {
        const [mine] = await q<AuthorRow>`
          SELECT id, slug, name, bio, photo, links, updated_at FROM authors
          WHERE editor_id = ${editorId}`;
        if (updatedAt !== undefined && (mine?.updated_at ?? null) !== updatedAt)
          throw new ContentError(
            'conflict',
            'Not saved: your profile was changed since you opened this form (in another tab?). Your text is kept: look at it again, then save.',
          );
        const change = mine ? profileChange(mine, profile) : EVERYTHING;
        // Sent as it was: nothing to write, and nothing for a cache in front to forget.
        if (mine && change === null) return profileOf(mine);
        const [page] = await q<{ id: number }>`SELECT id FROM pages WHERE slug = ${profile.slug}`;
        if (page)
          throw new ContentError(
            'invalid',
            `Address: a page is at /${profile.slug}. Choose another address.`,
          );
        const [topic] = await q<{
          name: string;
        }>`SELECT name FROM topics WHERE slug = ${profile.slug}`;
        if (topic)
          throw new ContentError(
            'invalid',
            `Address: the topic “${topic.name}” is at /${profile.slug}. Choose another address.`,
          );
        const [other] = await q<{ id: number | string }>`
          SELECT id FROM authors WHERE slug = ${profile.slug}
            AND (${mine === undefined} OR id <> ${Number(mine?.id ?? 0)})`;
        if (other)
          throw new ContentError(
            'invalid',
            `Address: another author is at /${profile.slug}. Choose another address.`,
          );
        if (mine?.slug !== profile.slug) {
          // Second hostile pass (M1): a Contributor's profile moved onto an Editor's redirect
          // replaced it for visitors. The pages' rule, in its one place.
          if (keepsRedirects) await refuseRedirectSource(q, profile.slug);
          // A renamed page's or topic's old address leads there on every full load (read-model
          // findRedirect reads their histories first): an author there would never be reached.
          const [renamed] = await q<{ slug: string }>`
            SELECT p.slug FROM slug_history h JOIN pages p ON p.id = h.page_id
            WHERE h.old_slug = ${profile.slug}
            UNION ALL
            SELECT t.slug FROM topic_slug_history h JOIN topics t ON t.id = h.topic_id
            WHERE h.old_slug = ${profile.slug}`;
          if (renamed)
            throw new ContentError(
              'invalid',
              `Address: /${profile.slug} is an old address of /${renamed.slug}, and leads there. Choose another address.`,
            );
        }
        if (profile.photo !== null) {
          const [media] = await q<{
            id: number;
          }>`SELECT id FROM media WHERE hash = ${profile.photo}`;
          if (!media)
            throw new ContentError(
              'invalid',
              'That photo is not in the media library: upload it there first, then paste its address.',
            );
        }
        const at = now().toISOString();
        if (mine && mine.slug !== profile.slug) {
          // The old address now leads to the new one; the new one is nobody's old address any
          // more (changing back does not loop, and another author's old address may be taken).
          await q`DELETE FROM author_slug_history WHERE old_slug = ${profile.slug}`;
          await q`
            INSERT INTO author_slug_history (old_slug, author_id, renamed_at)
            VALUES (${mine.slug}, ${Number(mine.id)}, ${at})
            ON CONFLICT (old_slug) DO UPDATE SET author_id = excluded.author_id,
              renamed_at = excluded.renamed_at`;
          // Third hostile pass (M3): an Author walking their address through free ones kept
          // every one answering for them. The newest few follow them, as a move needs.
          await q`
            DELETE FROM author_slug_history WHERE author_id = ${Number(mine.id)}
              AND old_slug NOT IN (
                SELECT old_slug FROM author_slug_history WHERE author_id = ${Number(mine.id)}
                ORDER BY renamed_at DESC, old_slug LIMIT ${AUTHOR_OLD_ADDRESSES_KEPT})`;
        }
        const links = JSON.stringify(profile.links);
        const [row] = mine
          ? await q<AuthorRow>`
              UPDATE authors SET slug = ${profile.slug}, name = ${profile.name}, bio = ${profile.bio},
                photo = ${profile.photo}, links = ${links}, updated_at = ${at}
              WHERE id = ${Number(mine.id)}
              RETURNING id, slug, name, bio, photo, links, updated_at`
          : await q<AuthorRow>`
              INSERT INTO authors (slug, name, bio, photo, links, editor_id, created_at, updated_at)
              VALUES (${profile.slug}, ${profile.name}, ${profile.bio}, ${profile.photo}, ${links},
                      ${editorId}, ${at}, ${at})
              RETURNING id, slug, name, bio, photo, links, updated_at`;
        if (!row) throw new Error('author write returned no row');
        // A name, photo or address shows across the site: everything; a bio or links, their
        // page (author-changes.ts). A first profile shows nowhere yet.
        if (mine && change !== null) await changed(change);
        return profileOf(row);
      });
    },
  };
}
