// Issue 27's loose end: the image a published page's share card shows cannot be deleted from the
// media library, for pages saved before the library counted a chosen social image as a use.
// A page whose card is the first image of its text was always counted (that image is in its
// HTML, read into media_refs since migration 11); a page's chosen social image joined
// media_refs only after migration 19 gave pages the field, so rows saved in between named it
// in `seo` alone, and migration 29 reads them again. The database is left as that code left
// it, then started as the README starts it (which migrates it), and the library is asked.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { type ContentStore, createContentStore } from '../../src/lib/content/content';
import type { SeoFields } from '../../src/lib/content/seo-fields';
import { migrate, openDatabase, type Query } from '../../src/lib/data/db';
import { migrations } from '../../src/lib/data/migrations';
import { addEditor } from '../../src/lib/editors/accounts';
import { processImage } from '../../src/lib/media/images';
import { createMediaStore } from '../../src/lib/media/media';
import { mediaRefsOf } from '../../src/lib/media/media-refs';
import { createThrowAwayDatabase } from '../databases';
import { formsIn, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio } from '../harness';

const EDITOR = { email: 'cards@example.com', password: 'the cards passphrase' };
const LIBRARY = '/preview?media';
let folio: RunningFolio;
let cookie = '';
const hashes = { firstImage: '', chosen: '', drafted: '' };

const seo = (image: string): SeoFields => ({
  title: '',
  description: '',
  image,
  canonical: '',
  noindex: false,
});

/** The refs that code wrote: the HTML's images only, never the chosen social image. */
async function asSavedBeforeTheFix(q: Query, slug: string, image: string) {
  const [page] = await q<{ id: number | string }>`SELECT id FROM pages WHERE slug = ${slug}`;
  const id = Number(page?.id);
  for (const row of await q<{ id: number | string; body_html: string }>`
    SELECT id, body_html FROM revisions WHERE page_id = ${id}`)
    await q`UPDATE revisions SET media_refs = ${mediaRefsOf(row.body_html)}
            WHERE id = ${Number(row.id)}`;
  for (const row of await q<{ body_html: string }>`
    SELECT body_html FROM drafts WHERE page_id = ${id}`)
    await q`UPDATE drafts SET media_refs = ${mediaRefsOf(row.body_html)} WHERE page_id = ${id}`;
  await q`DELETE FROM media_uses WHERE page_id = ${id} AND kind = 'published' AND hash = ${image}`;
}

beforeAll(async () => {
  const made = await createThrowAwayDatabase();
  const old = await openDatabase(made.url, { migrate: false, poolSize: 2 });
  try {
    await migrate(
      old,
      migrations.filter((migration) => migration.id < 29),
    );
    await addEditor(old, EDITOR.email, EDITOR.password);
    const media = createMediaStore(old);
    const upload = async (colour: string, alt: string) => {
      const png = await sharp({
        create: { width: 400, height: 300, channels: 3, background: colour },
      })
        .png()
        .toBuffer();
      return (await media.add(await processImage(new Uint8Array(png)), { alt, filename: 'x.png' }))
        .hash;
    };
    hashes.firstImage = await upload('#aa3366', 'Harbour');
    hashes.chosen = await upload('#3366aa', 'Chosen card');
    hashes.drafted = await upload('#66aa33', 'Drafted card');
    const store: ContentStore = createContentStore(old);
    await store.putPage(
      {
        slug: 'opens-with-image',
        title: 'Opens with an image',
        summary: '',
        body: `![Harbour](/media/${hashes.firstImage})\n\nThen text.`,
      },
      { publish: true },
    );
    const draft = (slug: string, image: string) =>
      store.saveDraft({
        slug,
        title: slug,
        summary: '',
        body: 'No image in the text.',
        expectedVersion: null,
        editor: EDITOR.email,
        seo: seo(image),
      });
    await draft('chosen-card', hashes.chosen);
    await store.publish('chosen-card');
    await draft('drafted-card', hashes.drafted);
    await old.transaction(async (q) => {
      await asSavedBeforeTheFix(q, 'chosen-card', hashes.chosen);
      await asSavedBeforeTheFix(q, 'drafted-card', hashes.drafted);
    });
    // The state the brief describes: the library did not count them.
    for (const hash of [hashes.chosen, hashes.drafted])
      expect((await media.uses([hash])).get(hash)?.pages ?? 0).toBe(0);
  } finally {
    await old.close();
  }
  folio = await startFolio({ database: made });
  cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
}, 120_000);
afterAll(async () => {
  await folio?.stop();
});

/** What the library says of image `hash` (its entry's words of use), and its delete form. */
async function library(hash: string) {
  const html = await (await fetch(`${folio.url}${LIBRARY}`, { headers: { cookie } })).text();
  const form = (await formsIn(html)).find((candidate) =>
    candidate.fields.some(([name, value]) => name === 'hash' && value === hash),
  );
  if (!form) throw new Error(`no form for ${hash} in the library`);
  const entry = html.split('<li class="media-item"').find((part) => part.includes(hash)) ?? '';
  const text = entry.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
  const use = /Used on \d+ pages?: [^()]*\([^)]*\)|Not used on any page/.exec(text)?.[0] ?? '';
  return { use, form };
}

async function removeWords(hash: string): Promise<string> {
  try {
    await createMediaStore(await folio.database()).remove(hash);
  } catch (error) {
    return (error as Error).message;
  }
  return 'deleted';
}

describe('an image a page saved before the fix shows on its card', () => {
  test('is counted once migrated, and its delete is refused in words', async () => {
    // Each page's card is the image (og:image), so deleting it would break every share.
    expect(await (await fetch(`${folio.url}/opens-with-image`)).text()).toMatch(
      new RegExp(`property="og:image" content="/media/${hashes.firstImage}/`),
    );
    expect(await (await fetch(`${folio.url}/chosen-card`)).text()).toMatch(
      new RegExp(`property="og:image" content="/media/${hashes.chosen}/`),
    );
    const cases: [string, string, string][] = [
      [hashes.firstImage, '/opens-with-image', 'published'],
      [hashes.chosen, '/chosen-card', 'published'],
      [hashes.drafted, '/drafted-card', 'draft'],
    ];
    for (const [hash, page, state] of cases) {
      const { use, form } = await library(hash);
      expect(use, page).toBe(`Used on 1 page: ${page} (${state})`);
      // A form from before the page was counted (its button enabled then), or a forged post.
      const refused = await submitForm(`${folio.url}${LIBRARY}`, form, {
        cookie,
        button: 'Delete',
      });
      expect(refused.status, page).toBe(303);
      expect(refused.headers.get('location'), page).toBe('/preview?media&notice=media-in-use');
      expect(await removeWords(hash)).toBe(
        `This image is on ${page}: take it out of that page (and publish), then delete it.`,
      );
      expect((await fetch(`${folio.url}/media/${hash}`, { redirect: 'manual' })).status).toBe(308);
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
