// Owns the steps every page write is made of, each inside the caller's transaction: finding
// the page a form expects (and refusing a stale one), new page ids, moving a slug, a page's
// version and last change, drafts and their schedules, and the two writes others build on —
// saving a draft and publishing it. The store's methods (write-model.ts, history.ts,
// schedules.ts) compose them; nothing here opens a transaction. One file past 400 lines
// because saving and publishing call each other's steps (a publish saves first; a save may
// end a schedule or ask for review again): split, the halves would import each other.
import 'server-only';
import { type ContentChange, EVERYTHING, pagesChanged } from '../data/content-changes';
import type { Query } from '../data/db';
import { renderMarkdown } from '../markdown/markdown';
import {
  mediaByHashes,
  mediaHashesIn,
  mediaRefsOf,
  missingMediaIn,
  missingMediaMessage,
} from '../media/media-refs';
import { authorAt, authorIdOfEditorEmail, authorIdsForSlugs } from './authors';
import type { CheckpointKind } from './checkpoint-policy';
import { keepMergeBase, recordCheckpoint } from './checkpoints';
import { ContentError } from './errors';
import { recordEvent } from './events';
import { type PageFields, pageFieldsSchema } from './page-fields';
import { isPageKind, NEW_PAGE_KIND, type PageKind, parseTopicNames } from './post-fields';
import { listingSlugsOf, syncPublishedPost } from './posts';
import { searchTextOfHtml } from './public-search-text';
import { refuseRedirectSource } from './redirects';
import { askReviewAgain, closeReview, forgetReview } from './review';
import { type PageRowRef, pageById, pageRowById, pageRowBySlug } from './rows';
import {
  formatSeo,
  parseSeo,
  type SeoFields,
  seoFieldsSchema,
  socialImageProblem,
} from './seo-fields';
import { menuPagesIn, menusShow } from './settings';
import { HOME_SLUG, validateNewSlug } from './slugs';
import type { Changed } from './store-context';
import { formatTopicIds, parseTopicIds } from './topic-ids';
import { refuseTopicSlug, topicIdsForNames } from './topics';
import type { Expectation, PageChange, SaveResult } from './types';

function parseFields(input: PageFields): PageFields {
  const parsed = pageFieldsSchema.safeParse(input);
  if (!parsed.success) {
    throw new ContentError('invalid', parsed.error.issues.map((issue) => issue.message).join(' '));
  }
  return parsed.data;
}

/** Fields ready to store: validated, and the Markdown rendered once (outside any transaction). */
export type StoredFields = PageFields & { bodyHtml: string };

export async function prepareFields(input: PageFields, q: Query): Promise<StoredFields> {
  const fields = parseFields(input);
  // Uploaded images it names render as <picture> with their sizes, known only from the store.
  const media = await mediaByHashes(q, mediaHashesIn(fields.body));
  return { ...fields, bodyHtml: await renderMarkdown(fields.body, { media }) };
}

/**
 * The page at `slug`, as the caller expects it: a form says which page it was made for
 * (`expected.pageId`) and which version it showed (`expected.version`). A page that is gone,
 * replaced by another at the same slug, or changed since, is refused with nothing written.
 */
export async function requirePage(q: Query, slug: string, expected: Expectation = {}) {
  const row = await pageRowBySlug(q, slug);
  if (expected.pageId !== undefined && row?.id !== expected.pageId) {
    throw new ContentError(
      'replaced',
      row
        ? `The page you opened is no longer at /${slug}: another page has that address now. Nothing was changed.`
        : 'The page you opened was deleted or renamed meanwhile. Nothing was changed.',
    );
  }
  if (!row) throw new ContentError('not-found', `There is no page “${slug}”.`);
  if (expected.version !== undefined && row.version !== expected.version) {
    throw new ContentError(
      'conflict',
      'The page changed since you opened it; review the latest version first.',
    );
  }
  return row;
}

/** A page id never used before, even by a deleted page (inside the caller's transaction). */
export async function nextPageId(q: Query): Promise<number> {
  const [row] = await q<{ value: string }>`
    UPDATE settings SET value = CAST(CAST(value AS BIGINT) + 1 AS TEXT)
    WHERE key = 'last_page_id' RETURNING value`;
  if (!row) throw new Error('settings has no last_page_id (run the migrations)');
  return Number(row.value);
}

/**
 * Moves a page to `newSlug` inside the caller's transaction; old slugs then redirect. A move
 * is a rename event (by `editor`, when known).
 */
export async function moveSlug(
  q: Query,
  page: PageRowRef,
  newSlug: string,
  at: string,
  editor: string | null,
) {
  if (page.slug === newSlug) return false;
  if (page.slug === HOME_SLUG)
    throw new ContentError('invalid-slug', 'The home page keeps its slug.');
  const problem = validateNewSlug(newSlug);
  if (problem) throw new ContentError('invalid-slug', problem);
  if (await pageRowBySlug(q, newSlug))
    throw new ContentError('slug-taken', `A page “${newSlug}” already exists.`);
  if (await authorAt(q, newSlug))
    throw new ContentError('slug-taken', `An author’s page is at /${newSlug}.`);
  await refuseTopicSlug(q, newSlug);
  await q`DELETE FROM slug_history WHERE old_slug = ${newSlug}`;
  await q`UPDATE pages SET slug = ${newSlug} WHERE id = ${page.id}`;
  await q`
    INSERT INTO slug_history (old_slug, page_id, renamed_at) VALUES (${page.slug}, ${page.id}, ${at})
    ON CONFLICT (old_slug) DO UPDATE SET page_id = excluded.page_id, renamed_at = excluded.renamed_at`;
  await recordEvent(q, {
    type: 'page.renamed',
    pageId: page.id,
    slug: newSlug,
    payload: { from: page.slug, to: newSlug },
    editor,
    at,
  });
  return true;
}

/**
 * What visitors see change when `page` changes at these addresses (its slug; old and new on a
 * rename): those pages and the listings — and every page when its link in a menu changes
 * (`linkChanged`: its title, its slug or whether it is published) and a menu shows it.
 */
export async function visibleChange(
  q: Query,
  page: { id: number; slug: string },
  slugs: string[],
  linkChanged: boolean,
): Promise<ContentChange> {
  if (linkChanged && menusShow(await menuPagesIn(q), page)) return EVERYTHING;
  // A published post is listed too (the home page, its topics): its link there changes.
  return pagesChanged(...slugs, ...(await listingSlugsOf(q, page.id)));
}

/** A page changed: its version moves on, with when, by whom and how. */
export async function touch(
  q: Query,
  pageId: number,
  at: string,
  change: PageChange,
  editor: string | null,
) {
  await q`UPDATE pages SET version = version + 1, updated_at = ${at}, updated_by = ${editor},
          last_change = ${change} WHERE id = ${pageId}`;
}

/**
 * Drops the page's draft, and with it any pending schedule: a schedule publishes the draft,
 * and one left without a draft would publish whatever is saved next (hostile pass, issue 14).
 */
export async function dropDraft(q: Query, pageId: number) {
  await q`DELETE FROM drafts WHERE page_id = ${pageId}`;
  await q`UPDATE pages SET publish_at = NULL, scheduled_by = NULL WHERE id = ${pageId}`;
  await forgetMissedSchedule(q, pageId);
  // A request for review is about the draft: no draft, nothing left to review (decision 0040).
  await forgetReview(q, pageId);
}

/**
 * The notice of a schedule that did not publish has been answered (or dismissed): any notice,
 * or only the one for the schedule due at `dueAt`. True when one was cleared.
 */
export async function forgetMissedSchedule(q: Query, pageId: number, dueAt?: string) {
  const cleared =
    dueAt === undefined
      ? await q`UPDATE pages SET missed_publish_at = NULL, missed_scheduled_by = NULL,
                missed_reason = NULL WHERE id = ${pageId} AND missed_publish_at IS NOT NULL
                RETURNING id`
      : await q`UPDATE pages SET missed_publish_at = NULL, missed_scheduled_by = NULL,
                missed_reason = NULL WHERE id = ${pageId} AND missed_publish_at = ${dueAt}
                RETURNING id`;
  return cleared.length > 0;
}

/** Whether the page's draft says exactly what its published revision says. */
export async function draftMatchesPublished(q: Query, pageId: number): Promise<boolean> {
  const [row] = await q<{ same: number | boolean }>`
    SELECT (d.title = r.title AND d.summary = r.summary AND d.body = r.body
            AND d.kind = r.kind AND d.topics = r.topics AND d.authors = r.authors
            AND d.seo = r.seo) AS same
    FROM drafts d JOIN pages p ON p.id = d.page_id
    JOIN revisions r ON r.id = p.published_revision_id
    WHERE d.page_id = ${pageId}`;
  return Boolean(row?.same);
}

/**
 * Whether a save of `fields` at the page's own address would change nothing: the page is
 * published, has no draft, and visitors see exactly this text.
 */
async function savesNothing(
  q: Query,
  page: PageRowRef,
  fields: StoredFields,
  post: StoredPost | null,
  seo: string | null,
): Promise<boolean> {
  if (page.published_revision_id === null) return false;
  const [row] = await q<{ same: number | boolean }>`
    SELECT (r.title = ${fields.title} AND r.summary = ${fields.summary} AND r.body = ${fields.body}
            AND r.kind = COALESCE(${post?.kind ?? null}, r.kind)
            AND r.topics = COALESCE(${post?.topics ?? null}, r.topics)
            AND r.authors = COALESCE(${post?.authors ?? null}, r.authors)
            AND r.seo = COALESCE(${seo}, r.seo))
      AS same
    FROM revisions r
    WHERE r.id = ${page.published_revision_id}
      AND NOT EXISTS (SELECT 1 FROM drafts d WHERE d.page_id = ${page.id})`;
  return Boolean(row?.same);
}

/**
 * A post's kind, its topics and its authors (JSON lists of ids) as drafts and revisions keep
 * them; `authors` null keeps the ones it has.
 */
export type StoredPost = { kind: PageKind; topics: string; authors: string | null };

/**
 * Writes the page's draft. `post` null keeps the kind and topics it has: the draft's, else the
 * published revision's (a save that does not say: the CLI, an autosave, a restore); `seo` null
 * (the search and sharing fields as stored, seo-fields.ts) likewise.
 */
export async function writeDraft(
  q: Query,
  pageId: number,
  fields: StoredFields,
  editor: string | null,
  at: string,
  post: StoredPost | null = null,
  seo: string | null = null,
) {
  const kind = post?.kind ?? null;
  const topics = post?.topics ?? null;
  const authors = post?.authors ?? null;
  // The fields kept (seo null): the draft's, else the published revision's. Read here, not in
  // the INSERT, because the social image they name goes into media_refs with the HTML's.
  const [kept] =
    seo === null
      ? await q<{ seo: string | null }>`
          SELECT COALESCE((SELECT d.seo FROM drafts d WHERE d.page_id = ${pageId}),
                          (SELECT r.seo FROM pages p JOIN revisions r
                             ON r.id = p.published_revision_id WHERE p.id = ${pageId})) AS seo`
      : [];
  const storedSeoText = seo ?? kept?.seo ?? '{}';
  // The images the page uses go beside its HTML: the library's usage follows (migration 11).
  await q`
    INSERT INTO drafts
      (page_id, title, summary, body, body_html, media_refs, updated_at, updated_by, kind, topics,
       authors, seo)
    VALUES (${pageId}, ${fields.title}, ${fields.summary}, ${fields.body}, ${fields.bodyHtml},
            ${mediaRefsOf(fields.bodyHtml, parseSeo(storedSeoText).image)}, ${at}, ${editor},
            COALESCE(CAST(${kind} AS TEXT), (SELECT r.kind FROM pages p
              JOIN revisions r ON r.id = p.published_revision_id WHERE p.id = ${pageId}), 'page'),
            COALESCE(CAST(${topics} AS TEXT), (SELECT r.topics FROM pages p
              JOIN revisions r ON r.id = p.published_revision_id WHERE p.id = ${pageId}), '[]'),
            COALESCE(CAST(${authors} AS TEXT), (SELECT r.authors FROM pages p
              JOIN revisions r ON r.id = p.published_revision_id WHERE p.id = ${pageId}), '[]'),
            ${storedSeoText})
    ON CONFLICT (page_id) DO UPDATE SET title = excluded.title, summary = excluded.summary,
      body = excluded.body, body_html = excluded.body_html, media_refs = excluded.media_refs,
      updated_at = excluded.updated_at, updated_by = excluded.updated_by,
      kind = COALESCE(CAST(${kind} AS TEXT), drafts.kind),
      topics = COALESCE(CAST(${topics} AS TEXT), drafts.topics),
      authors = COALESCE(CAST(${authors} AS TEXT), drafts.authors),
      seo = excluded.seo`;
}

/**
 * What an editor chose for a post: stored as is, its topic names found or created. The home
 * page is the site's front, never a post.
 */
async function storedPost(
  q: Query,
  slug: string,
  post: PostInput | undefined,
  at: string,
): Promise<StoredPost | null> {
  if (!post) return null;
  if (!isPageKind(post.kind)) throw new ContentError('invalid', 'Choose post or page.');
  // The same rules as the editor's field: every caller (the CLI, a script) is held to them.
  const parsed = parseTopicNames(post.topics.join(','));
  if ('error' in parsed) throw new ContentError('invalid-topics', parsed.error);
  const authors =
    post.authors === undefined ? null : formatTopicIds(await authorIdsForSlugs(q, post.authors));
  if (slug === HOME_SLUG) return { kind: 'page', topics: '[]', authors: '[]' };
  // A page keeps the topics and authors it was given (nothing lost when it becomes a post
  // again); only posts are listed under them (posts.ts).
  return {
    kind: post.kind,
    topics: formatTopicIds(
      await topicIdsForNames(q, parsed.names, at, { refused: post.topicCreationRefused }),
    ),
    authors,
  };
}

/**
 * Refuses a post's new bylines that name others and not the saver (issue 28, hostile pass 2:
 * an Author published words under a colleague's name alone). Checked when a draft is saved,
 * not at publish: a schedule set earlier publishes the draft as it is then, unchecked. Bylines
 * left as they were pass (an Editor's attribution stands when its Author saves the text again).
 */
async function refuseOthersBylines(
  q: Query,
  editor: string | null,
  post: StoredPost | null,
  pageId: number | null,
): Promise<void> {
  if (editor === null || post?.kind !== 'post' || post.authors === null) return;
  const named = parseTopicIds(post.authors);
  if (named.length === 0) return;
  const [kept] =
    pageId === null
      ? []
      : await q<{ authors: string | null }>`
          SELECT COALESCE((SELECT d.authors FROM drafts d WHERE d.page_id = ${pageId}),
                          (SELECT r.authors FROM pages p JOIN revisions r
                             ON r.id = p.published_revision_id WHERE p.id = ${pageId})) AS authors`;
  if (kept?.authors === post.authors) return;
  const me = await authorIdOfEditorEmail(q, editor);
  if (me !== null && named.includes(me)) return;
  throw new ContentError(
    'authors-forbidden',
    'You cannot put a post under other authors’ names alone: add yourself among its authors, or ask an Editor to set them.',
  );
}

/**
 * The search and sharing fields as drafts keep them (null: keep the ones it has), checked again
 * whoever calls (the editor's form, a script): the chosen social image must be in the library
 * and large enough for a share card.
 */
async function storedSeo(q: Query, seo: SeoFields | undefined): Promise<string | null> {
  if (!seo) return null;
  const parsed = seoFieldsSchema.safeParse({ ...seo, image: seo.image ?? '' });
  if (!parsed.success)
    throw new ContentError('invalid-seo', parsed.error.issues.map((i) => i.message).join(' '));
  const fields = parsed.data;
  if (fields.image !== null) {
    const item = (await mediaByHashes(q, [fields.image])).get(fields.image);
    if (!item)
      throw new ContentError(
        'invalid-seo',
        'The chosen social image is no longer in the library: choose another, or the first image of the page.',
      );
    const problem = socialImageProblem(item.width, item.height);
    if (problem) throw new ContentError('invalid-seo', problem);
  }
  return formatSeo(fields);
}

export type SaveInput = {
  slug: string;
  pageId?: number;
  expectedVersion: number | null;
  editor: string | null;
  /** An editor's save is kept in the page's history as this kind (the CLI and imports: not). */
  checkpoint?: CheckpointKind;
  /** Post or page, and the topic names typed (the editor's Save); absent keeps them. */
  post?: PostInput;
  /** The search and sharing fields (the editor's Save); absent keeps them. */
  seo?: SeoFields;
  /**
   * The saver may not schedule this page (issue 28, hostile pass finding 1): a pending
   * scheduled publish was set by someone who reviewed an earlier draft, and would publish this
   * unreviewed text on their behalf. The save cancels it in its own transaction, and asks for
   * review again, so nothing unreviewed goes live and the reviewer sees it waiting.
   */
  cancelsSchedule?: boolean;
  /**
   * The saver may not manage redirects (permissions.ts 'redirect.edit'): a new page or a new
   * address where an editor's redirect answers is refused (redirects.ts refuseRedirectSource).
   * Unset (the CLI, an import, an Editor and above): a page wins over a redirect.
   */
  keepsRedirects?: boolean;
  /**
   * The saver may act only on their own pages (permissions.ts mayBylineOthers says no): bylines
   * they change must name them when they name anyone (refuseOthersBylines).
   */
  ownBylines?: boolean;
};

export type PostInput = {
  kind: PageKind;
  topics: readonly string[];
  /** Its authors' addresses, in byline order; absent keeps them (a new page: the editor's). */
  authors?: readonly string[];
  /**
   * Set when the saver may not create topics (permissions.ts 'topic.create'): the refusal in
   * words, said when a name is no topic's. Unset (the CLI, a script, an Author and above): a
   * new name makes a topic.
   */
  topicCreationRefused?: string;
};

export async function saveDraftIn(
  now: () => Date,
  q: Query,
  changed: Changed,
  input: SaveInput,
  fields: StoredFields,
): Promise<SaveResult> {
  const at = now().toISOString();
  if (input.expectedVersion === null) {
    if (await pageRowBySlug(q, input.slug))
      throw new ContentError('slug-taken', `A page “${input.slug}” already exists.`);
    const problem = validateNewSlug(input.slug);
    if (problem) throw new ContentError('invalid-slug', problem);
    if (await authorAt(q, input.slug))
      throw new ContentError('slug-taken', `An author’s page is at /${input.slug}.`);
    await refuseTopicSlug(q, input.slug);
    if (input.keepsRedirects) await refuseRedirectSource(q, input.slug);
    const id = await nextPageId(q);
    // Its maker owns it (issue 28: what an Author or a Contributor may touch); a page the CLI
    // or an import makes names no editor, and is nobody's own.
    await q`INSERT INTO pages (id, slug, created_at, updated_at, updated_by, last_change, created_by)
            VALUES (${id}, ${input.slug}, ${at}, ${at}, ${input.editor}, 'saved',
              (SELECT id FROM editors WHERE email = ${input.editor}))`;
    const given = await storedPost(q, input.slug, input.post, at);
    if (input.ownBylines) await refuseOthersBylines(q, input.editor, given, null);
    const post = given ?? {
      kind: input.slug === HOME_SLUG ? 'page' : NEW_PAGE_KIND,
      topics: '[]',
      authors: null,
    };
    // A new page written by an editor with an author profile starts with them as its author.
    const own =
      post.authors === null && input.editor !== null && input.slug !== HOME_SLUG
        ? await authorIdOfEditorEmail(q, input.editor)
        : null;
    await writeDraft(
      q,
      id,
      fields,
      input.editor,
      at,
      { ...post, authors: post.authors ?? formatTopicIds(own === null ? [] : [own]) },
      await storedSeo(q, input.seo),
    );
    if (input.checkpoint)
      await recordCheckpoint(q, {
        pageId: id,
        version: 1,
        kind: input.checkpoint,
        text: fields,
        editor: input.editor,
        at,
      });
    return { ok: true, version: 1, pageId: id, slug: input.slug };
  }
  const existing =
    input.pageId !== undefined
      ? await pageRowById(q, input.pageId)
      : await pageRowBySlug(q, input.slug);
  if (!existing) {
    throw new ContentError(
      'not-found',
      input.pageId !== undefined
        ? 'This page was deleted meanwhile; nothing was saved. Your text is kept here.'
        : `There is no page “${input.slug}”.`,
    );
  }
  if (existing.version !== input.expectedVersion) {
    return { ok: false, reason: 'conflict', current: await pageById(q, existing.id) };
  }
  // The text visitors see, saved again with no draft to replace: nothing to write. A new
  // version would make every open tab stale for nothing, and its checkpoint would be listed as
  // "the draft now" of a page that has no draft.
  const post = await storedPost(q, input.slug, input.post, at);
  if (input.ownBylines) await refuseOthersBylines(q, input.editor, post, existing.id);
  const seo = await storedSeo(q, input.seo);
  if (existing.slug === input.slug && (await savesNothing(q, existing, fields, post, seo)))
    return { ok: true, version: existing.version, pageId: existing.id, slug: existing.slug };
  if (input.keepsRedirects && existing.slug !== input.slug)
    await refuseRedirectSource(q, input.slug);
  const renamed = await moveSlug(q, existing, input.slug, at, input.editor);
  if (renamed)
    await changed(
      await visibleChange(
        q,
        existing,
        [existing.slug, input.slug],
        existing.published_revision_id !== null,
      ),
    );
  await writeDraft(q, existing.id, fields, input.editor, at, post, seo);
  // A draft that says what is published is no draft: a rename alone went live, and the page
  // is "published", not "published with a newer draft".
  const nothingNew = await draftMatchesPublished(q, existing.id);
  if (nothingNew) await dropDraft(q, existing.id);
  // A save kept in the history is a draft's text; one that left no draft (its text is the
  // published one) is kept hidden, as a merge base only: listed, it would be "the draft now".
  if (input.checkpoint && !nothingNew)
    await recordCheckpoint(q, {
      pageId: existing.id,
      version: existing.version + 1,
      kind: input.checkpoint,
      text: fields,
      editor: input.editor,
      at,
    });
  await touch(q, existing.id, at, renamed && nothingNew ? 'renamed' : 'saved', input.editor);
  if (input.checkpoint && nothingNew)
    await keepMergeBase(q, existing.id, input.checkpoint, input.editor, at);
  const unscheduled =
    input.cancelsSchedule === true && !nothingNew
      ? await unscheduleForReview(q, existing.id, existing.version + 1, input.editor, at)
      : false;
  return {
    ok: true,
    version: existing.version + 1,
    pageId: existing.id,
    slug: input.slug,
    ...(unscheduled ? { unscheduled } : {}),
  };
}

/**
 * Cancels the page's pending scheduled publish, inside the save or restore by someone who may
 * not schedule it, and asks for review of the draft as it is now (by the saver, at `version`):
 * the schedule was a reviewer's answer to an earlier text. True when there was one.
 */
export async function unscheduleForReview(
  q: Query,
  pageId: number,
  version: number,
  editor: string | null,
  at: string,
): Promise<boolean> {
  const cleared = await q`UPDATE pages SET publish_at = NULL, scheduled_by = NULL
                          WHERE id = ${pageId} AND publish_at IS NOT NULL RETURNING id`;
  if (cleared.length === 0) return false;
  if (editor !== null) await askReviewAgain(q, pageId, { editor, at, version });
  return true;
}

export async function publishIn(
  now: () => Date,
  q: Query,
  changed: Changed,
  slug: string,
  {
    editor = null,
    via = null,
    dueAt,
    allowMissingMedia = false,
    history = true,
    keepsRedirects = false,
    ...expected
  }: {
    editor?: string | null;
    /** The publisher may not manage redirects: a page at a redirect's address is refused. */
    keepsRedirects?: boolean;
    via?: 'schedule' | null;
    /** A schedule's publish: the time it was due (for its event). */
    dueAt?: string;
    /** An import: its images travel separately (by backup or `db copy`), maybe later. */
    allowMissingMedia?: boolean;
    /** Keep the published text as the merge base of its version (not for imports). */
    history?: boolean;
  } & Expectation,
): Promise<number> {
  const page = await requirePage(q, slug, expected);
  if (keepsRedirects) await refuseRedirectSource(q, page.slug);
  const [draft] = await q<{
    title: string;
    summary: string;
    body: string;
    body_html: string;
    media_refs: string;
    kind: string;
    topics: string;
    authors: string;
    seo: string;
  }>`SELECT title, summary, body, body_html, media_refs, kind, topics, authors, seo
     FROM drafts WHERE page_id = ${page.id}`;
  if (!draft) {
    if (page.published_revision_id !== null) return page.version;
    throw new ContentError('invalid', 'There is nothing to publish.');
  }
  // An image deleted since this text was written (a restored old version) or never uploaded:
  // visitors would see it broken. Every publish comes here: the editor, the CLI, a schedule.
  const missing = allowMissingMedia
    ? []
    : await missingMediaIn(q, draft.body_html, parseSeo(draft.seo).image);
  if (missing.length > 0) throw new ContentError('missing-media', missingMediaMessage(missing));
  // Read before the publish replaces it: whether the header's link to this page changes.
  const [before] =
    page.published_revision_id === null
      ? []
      : await q<{ title: string }>`
          SELECT title FROM revisions WHERE id = ${page.published_revision_id}`;
  const linkChanged = before?.title !== draft.title;
  const at = now().toISOString();
  const [revision] = await q<{ id: number }>`
    INSERT INTO revisions
      (page_id, title, summary, body, body_html, media_refs, search_text, published_at,
       published_by, published_via, kind, topics, authors, seo)
    VALUES (${page.id}, ${draft.title}, ${draft.summary}, ${draft.body}, ${draft.body_html},
            ${draft.media_refs}, ${searchTextOfHtml(draft.body_html)}, ${at}, ${editor}, ${via},
            ${draft.kind}, ${draft.topics}, ${draft.authors}, ${draft.seo})
    RETURNING id`;
  if (!revision) throw new Error('revision insert returned no row');
  await q`UPDATE pages SET published_revision_id = ${Number(revision.id)} WHERE id = ${page.id}`;
  // Publishing a draft that waited for review answers the request, in the page's history.
  await closeReview(q, page.id, 'published', { editor, at, version: page.version });
  // A publish by hand settles a pending schedule too: the draft it was for is out.
  await dropDraft(q, page.id);
  await touch(q, page.id, at, 'published', editor);
  if (history) await keepMergeBase(q, page.id, 'publish', editor, at);
  await recordEvent(q, {
    type: via === 'schedule' ? 'page.scheduled_publish_done' : 'page.published',
    pageId: page.id,
    slug: page.slug,
    payload: {
      revisionId: Number(revision.id),
      version: page.version + 1,
      ...(dueAt === undefined ? {} : { due: dueAt }),
    },
    editor,
    at,
  });
  // The listings it left and those it joined (a topic taken off, a post made a page).
  const listings = await syncPublishedPost(q, page.id);
  await changed(await visibleChange(q, page, [page.slug, ...listings], linkChanged));
  return page.version + 1;
}
