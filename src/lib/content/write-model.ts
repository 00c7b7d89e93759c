// Owns the page store's writes by editors, the CLI and imports: saving a draft (and publishing
// what is on screen), publishing, unpublishing, discarding, renaming, putting pages regardless
// of version, and refreshing images' <source> lists. Each is one transaction built from the
// steps in page-writes.ts.
import 'server-only';
import { mediaByHashes, mediaHashesIn, refreshPictureSources } from '../media/media-refs';
import { keepMergeBase } from './checkpoints';
import { ContentError } from './errors';
import { recordEvent } from './events';
import type { PageFields } from './page-fields';
import {
  dropDraft,
  moveSlug,
  type PostInput,
  prepareFields,
  publishIn,
  requirePage,
  type SaveInput,
  saveDraftIn,
  touch,
  visibleChange,
} from './page-writes';
import { syncPublishedPost } from './posts';
import { pageRowBySlug } from './rows';
import type { StoreContext } from './store-context';
import type { Expectation, SaveResult } from './types';

export function writeModel({ opened, read, write, now }: StoreContext) {
  const writes = {
    /**
     * Saves a draft. `expectedVersion` null creates a page at `slug`. Otherwise the page is the
     * one `pageId` names (a form's page, whatever its slug is now) or, without it, the one at
     * `slug`; its version must equal `expectedVersion`, or nothing is written and the caller
     * gets what was saved meanwhile. A page found by id and saved under another slug is renamed
     * in the same transaction.
     */
    async saveDraft(
      input: PageFields & SaveInput,
      { publish = false }: { publish?: boolean } = {},
    ): Promise<SaveResult> {
      const fields = await prepareFields(input, (await opened()).query);
      return write(async (q, changed) => {
        const saved = await saveDraftIn(now, q, changed, input, fields);
        // "Publish" with unsaved text publishes what is on screen, in the same transaction.
        if (!saved.ok || !publish) return saved;
        const version = await publishIn(now, q, changed, saved.slug, {
          editor: input.editor,
          pageId: saved.pageId,
          keepsRedirects: input.keepsRedirects === true,
        });
        // A published page whose text the save left as it was: nothing published, no new version.
        return { ...saved, version, published: version !== saved.version };
      });
    },

    /** Makes the latest draft the published version (kept as a revision). */
    async publish(
      slug: string,
      options: { editor?: string | null; keepsRedirects?: boolean } & Expectation = {},
    ): Promise<number> {
      return write((q, changed) => publishIn(now, q, changed, slug, options));
    },

    /** Takes a page down; its text stays as a draft so nothing is lost. */
    async unpublish(
      slug: string,
      { editor = null, ...expected }: { editor?: string | null } & Expectation = {},
    ): Promise<void> {
      await write(async (q, changed) => {
        const page = await requirePage(q, slug, expected);
        if (page.published_revision_id === null) return;
        const at = now().toISOString();
        await q`
          INSERT INTO drafts
            (page_id, title, summary, body, body_html, media_refs, updated_at, updated_by, kind,
             topics, authors, seo)
          SELECT page_id, title, summary, body, body_html, media_refs, ${at}, ${editor}, kind,
            topics, authors, seo
          FROM revisions
          WHERE id = ${page.published_revision_id}
          ON CONFLICT (page_id) DO NOTHING`;
        // Taking a page down is deliberate: a pending schedule must not bring it back.
        await q`UPDATE pages SET published_revision_id = NULL, publish_at = NULL,
                scheduled_by = NULL WHERE id = ${page.id}`;
        await touch(q, page.id, at, 'unpublished', editor);
        await keepMergeBase(q, page.id, 'unpublish', editor, at);
        await recordEvent(q, {
          type: 'page.unpublished',
          pageId: page.id,
          slug: page.slug,
          payload: { revisionId: page.published_revision_id },
          editor,
          at,
        });
        const listings = await syncPublishedPost(q, page.id);
        await changed(await visibleChange(q, page, [page.slug, ...listings], true));
      });
    },

    /** Drops the draft; a page that was never published is deleted with it. */
    async discardDraft(
      slug: string,
      { editor = null, ...expected }: { editor?: string | null } & Expectation = {},
    ): Promise<void> {
      await write(async (q) => {
        const page = await requirePage(q, slug, expected);
        if (page.published_revision_id === null) {
          await q`DELETE FROM pages WHERE id = ${page.id}`;
          await recordEvent(q, {
            type: 'page.deleted',
            pageId: page.id,
            slug: page.slug,
            payload: { via: 'discard' },
            editor,
            at: now().toISOString(),
          });
          return;
        }
        await dropDraft(q, page.id);
        const at = now().toISOString();
        await touch(q, page.id, at, 'discarded', editor);
        await keepMergeBase(q, page.id, 'discard', editor, at);
      });
    },

    /** Renames a page; the old slug (and any older ones) then redirect to the new one. */
    async renameSlug(oldSlug: string, newSlug: string): Promise<void> {
      await write(async (q, changed) => {
        const page = await requirePage(q, oldSlug);
        if (oldSlug === newSlug) return;
        const at = now().toISOString();
        if (await moveSlug(q, page, newSlug, at, null))
          await changed(
            await visibleChange(q, page, [oldSlug, newSlug], page.published_revision_id !== null),
          );
        await touch(q, page.id, at, 'renamed', null);
        await keepMergeBase(q, page.id, 'rename', null, at);
      });
    },

    /**
     * Makes the <source> elements of every uploaded image in kept drafts and revisions anew
     * from the sizes the store now has (`folio media refresh`), and keeps the HTML where that
     * changed it. Nothing is rendered again: a full render under load could fall back to plain
     * code and keep it (hostile pass). Markdown and page versions are not touched, so editors'
     * open forms stay valid. Returns how many texts changed.
     */
    async refreshPictures(): Promise<number> {
      type Kept = { id: number; body: string; body_html: string };
      const [drafts, revisions] = await read(async (q) => [
        await q<Kept>`
          SELECT page_id AS id, body, body_html FROM drafts WHERE body LIKE '%/media/%'`,
        await q<Kept>`
          SELECT id, body, body_html FROM revisions WHERE body LIKE '%/media/%'`,
      ]);
      // Every image any of these texts names, read once (revisions repeat the same images).
      const media = await read((q) =>
        mediaByHashes(q, [
          ...new Set([...drafts, ...revisions].flatMap((row) => mediaHashesIn(row.body))),
        ]),
      );
      const changed = (rows: Kept[]) =>
        rows
          .map((row) => ({ ...row, html: refreshPictureSources(row.body_html, media) }))
          .filter((row) => row.html !== row.body_html);
      const [draftHtml, revisionHtml] = [changed(drafts), changed(revisions)];
      if (draftHtml.length + revisionHtml.length === 0) return 0;
      // Written only where the HTML is still the one read, so a save meanwhile keeps its own.
      return write(async (q, bump) => {
        let refreshed = 0;
        for (const row of draftHtml)
          refreshed += (
            await q`UPDATE drafts SET body_html = ${row.html}
                    WHERE page_id = ${row.id} AND body_html = ${row.body_html} RETURNING page_id`
          ).length;
        for (const row of revisionHtml)
          refreshed += (
            await q`UPDATE revisions SET body_html = ${row.html}
                    WHERE id = ${row.id} AND body_html = ${row.body_html} RETURNING id`
          ).length;
        if (refreshed > 0) await bump();
        return refreshed;
      });
    },

    /** Creates or overwrites a page's draft regardless of version (CLI, seed), optionally publishing. */
    async putPage(
      input: PageFields & { slug: string; post?: PostInput },
      { publish = false, editor = null }: { publish?: boolean; editor?: string | null } = {},
    ): Promise<void> {
      await writes.putPages([{ ...input, publish }], { editor });
    },

    /**
     * `putPage` for several pages, in one transaction: all of them or none (import). Each
     * page's text is kept as the merge base of its new version (an editor's tab opened on it
     * merges against it) unless `history` is false: an import of a whole site keeps no second
     * copy of every page.
     */
    async putPages(
      inputs: readonly (PageFields & { slug: string; publish: boolean; post?: PostInput })[],
      {
        editor = null,
        allowMissingMedia = false,
        history = true,
      }: { editor?: string | null; allowMissingMedia?: boolean; history?: boolean } = {},
    ): Promise<void> {
      const prepared = await Promise.all(
        inputs.map(async (input) => ({
          input,
          fields: await prepareFields(input, (await opened()).query),
        })),
      );
      await write(async (q, changed) => {
        for (const { input, fields } of prepared) {
          const existing = await pageRowBySlug(q, input.slug);
          const result = await saveDraftIn(
            now,
            q,
            changed,
            {
              slug: input.slug,
              expectedVersion: existing ? existing.version : null,
              editor,
              ...(input.post ? { post: input.post } : {}),
            },
            fields,
          );
          if (!result.ok)
            throw new ContentError('conflict', 'The page changed while saving; try again.');
          if (input.publish)
            await publishIn(now, q, changed, input.slug, { editor, allowMissingMedia, history });
          else if (history)
            await keepMergeBase(q, result.pageId, 'put', editor, now().toISOString());
        }
      });
    },
  };
  return writes;
}
