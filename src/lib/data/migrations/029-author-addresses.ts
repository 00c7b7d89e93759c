import { parseSeo } from '../../content/seo-fields';
import { mediaRefsOf } from '../../media/media-refs';
import type { Query } from '../db';
import type { Migration } from './index';

// Two leftovers of issue 27, one migration (027 and 028 were taken by other work that night).
//
// An author's old addresses (decision 0035's amendment): when an editor changes their public
// address, the old `/<slug>` redirects to the new one as a renamed page's or topic's does.
// Pages' history (`slug_history`) names a page and topics' a topic, each with a foreign key
// that cascades, so authors get a table of their own of the same shape; read-model.ts
// `findRedirect` reads it after the other two.
//
// A page's chosen social image as a use of that image: it joined `media_refs` (and so
// `media_uses`, migration 11's triggers) after migration 19 gave pages the field, so a draft or
// revision saved in between names its social image in `seo` but not in `media_refs`, and the
// library let the image be deleted under the page's card until the page's next save. Those
// rows are read once here (only texts with a choice at all) and their refs written as the next
// save would write them.
const SCHEMA = `
CREATE TABLE author_slug_history (
  old_slug TEXT PRIMARY KEY,
  author_id INTEGER NOT NULL REFERENCES authors(id) ON DELETE CASCADE,
  renamed_at TEXT NOT NULL
);
`;

/** Texts read per batch by the backfill: what it holds in memory at once. */
const BACKFILL_BATCH = 500;

type TextRow = { key: number | string; body_html: string; media_refs: string; seo: string };

/** The refs the next save would write, when they differ by the chosen social image; else null. */
function refsWithSocialImage(row: TextRow): string | null {
  const image = parseSeo(row.seo).image;
  if (image === null) return null;
  let refs: unknown;
  try {
    refs = JSON.parse(row.media_refs);
  } catch {
    refs = [];
  }
  if (Array.isArray(refs) && refs.includes(image)) return null;
  return mediaRefsOf(row.body_html, image);
}

async function backfill(q: Query): Promise<void> {
  for (const table of ['drafts', 'revisions'] as const) {
    let after = 0;
    for (;;) {
      const rows =
        table === 'drafts'
          ? await q<TextRow>`
              SELECT page_id AS key, body_html, media_refs, seo FROM drafts
              WHERE page_id > ${after} AND seo <> '{}'
              ORDER BY page_id LIMIT ${BACKFILL_BATCH}`
          : await q<TextRow>`
              SELECT id AS key, body_html, media_refs, seo FROM revisions
              WHERE id > ${after} AND seo <> '{}'
              ORDER BY id LIMIT ${BACKFILL_BATCH}`;
      for (const row of rows) {
        const refs = refsWithSocialImage(row);
        if (refs === null) continue;
        const key = Number(row.key);
        // A draft's uses follow its refs by trigger; a revision's only when it is published
        // (the trigger is on pages), so those are added here.
        if (table === 'drafts')
          await q`UPDATE drafts SET media_refs = ${refs} WHERE page_id = ${key}`;
        else {
          await q`UPDATE revisions SET media_refs = ${refs} WHERE id = ${key}`;
          await q`
            INSERT INTO media_uses (page_id, kind, hash)
            SELECT p.id, 'published', ${parseSeo(row.seo).image} FROM pages p
            WHERE p.published_revision_id = ${key}
            ON CONFLICT DO NOTHING`;
        }
      }
      if (rows.length < BACKFILL_BATCH) break;
      after = Number(rows.at(-1)?.key);
    }
  }
}

export const migration029: Migration = {
  id: 29,
  name: 'author-addresses',
  sqlite: SCHEMA,
  postgres: SCHEMA,
  backfill,
};
