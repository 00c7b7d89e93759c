// Issue 27's hostile pass, finding 1: a page's social image (Search and sharing) and an author's
// profile photo could be deleted from the media library — it said "Not used on any page" — and a
// draft naming a deleted social image was published. Against the server as the README starts it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { addEditor } from '../../src/lib/editors/accounts';
import { processImage } from '../../src/lib/media/images';
import { createMediaStore } from '../../src/lib/media/media';
import { formsIn, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const EDITOR = { email: 'uses@example.com', password: 'the uses passphrase' };
const LIBRARY = '/preview?media';
let folio: RunningFolio;
let cookie = '';
let editorId = 0;

beforeAll(async () => {
  folio = await startFolio();
  editorId = (await addEditor(await folio.database(), EDITOR.email, EDITOR.password)).id;
  cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

async function imageOf(colour: string, alt: string): Promise<string> {
  const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const item = await createMediaStore(await folio.database()).add(
    await processImage(new Uint8Array(png)),
    { alt, filename: `${alt}.png`, editor: EDITOR.email },
  );
  return item.hash;
}

/** The library's text (tags out) and the delete form of image `hash`. */
async function library(hash: string) {
  const html = await (await fetch(`${folio.url}${LIBRARY}`, { headers: { cookie } })).text();
  const form = (await formsIn(html)).find((candidate) =>
    candidate.fields.some(([name, value]) => name === 'hash' && value === hash),
  );
  if (!form) throw new Error(`no form for ${hash} in the library`);
  return { text: html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' '), form };
}

async function deleteWithForm(hash: string) {
  const { form } = await library(hash);
  // A form from before the image was used (its button enabled then), or a forged post.
  return submitForm(`${folio.url}${LIBRARY}`, form, { cookie, button: 'Delete' });
}

async function removeWords(hash: string): Promise<string> {
  try {
    await createMediaStore(await folio.database()).remove(hash);
  } catch (error) {
    return (error as Error).message;
  }
  return 'deleted';
}

const seo = (image: string | null) => ({
  title: '',
  description: '',
  image,
  canonical: '',
  noindex: false,
});

describe('images used outside a page’s text', () => {
  test('a draft’s social image, then the published page’s, is not deleted; the library says where', async () => {
    const hash = await imageOf('#aa3366', 'Card image');
    await withStore(folio, (store) =>
      store.saveDraft({
        slug: 'card-page',
        title: 'Card page',
        summary: '',
        body: 'No image in the text.',
        expectedVersion: null,
        editor: EDITOR.email,
        seo: seo(hash),
      }),
    );
    const drafted = await library(hash);
    expect(drafted.text).toContain('Used on 1 page: /card-page (draft)');
    expect(drafted.text).not.toContain('Not used on any page');
    const refused = await deleteWithForm(hash);
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/preview?media&notice=media-in-use');
    expect(await removeWords(hash)).toBe(
      'This image is on /card-page: take it out of that page (and publish), then delete it.',
    );
    await withStore(folio, (store) => store.publish('card-page'));
    expect((await library(hash)).text).toContain('Used on 1 page: /card-page (published)');
    expect(await removeWords(hash)).toContain('This image is on /card-page');
    expect((await fetch(`${folio.url}/media/${hash}`, { redirect: 'manual' })).status).toBe(308);
    // An autosave (no seo fields sent) keeps the image counted.
    await withStore(folio, async (store) => {
      const page = await store.getPage('card-page', { draft: true });
      await store.saveDraft({
        slug: 'card-page',
        pageId: page?.id,
        title: 'Card page, retitled',
        summary: '',
        body: 'Still no image in the text.',
        expectedVersion: page?.version ?? 0,
        editor: EDITOR.email,
      });
    });
    expect((await library(hash)).text).toContain('/card-page (published, draft)');
    const notice = await (
      await fetch(`${folio.url}${LIBRARY}&notice=media-in-use`, { headers: { cookie } })
    ).text();
    expect(notice).toContain('as its social image (Search and sharing)');
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('an author’s profile photo is not deleted; the library names the author', async () => {
    const hash = await imageOf('#33aa66', 'Portrait');
    await withStore(folio, (store) =>
      store.saveAuthorProfile(editorId, {
        slug: 'ada-uses',
        name: 'Ada Uses',
        bio: '',
        photo: `/media/${hash}`,
        links: '',
      }),
    );
    const shown = await library(hash);
    expect(shown.text).toContain('Profile photo of Ada Uses.');
    const refused = await deleteWithForm(hash);
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/preview?media&notice=media-is-photo');
    expect((await fetch(`${folio.url}/media/${hash}`, { redirect: 'manual' })).status).toBe(308);
    const notice = await (
      await fetch(`${folio.url}${LIBRARY}&notice=media-is-photo`, { headers: { cookie } })
    ).text();
    expect(notice).toContain('Not deleted: an author’s profile shows this image as their photo');
    expect(await removeWords(hash)).toBe(
      'This image is the profile photo of Ada Uses: choose another photo in that profile, or none, then delete it.',
    );
    // Another photo chosen: the first one goes as any unused image.
    const other = await imageOf('#6633aa', 'Other portrait');
    const [row] = await (await folio.database()).query<{ updated_at: string }>`
      SELECT updated_at FROM authors WHERE slug = 'ada-uses'`;
    await withStore(folio, (store) =>
      store.saveAuthorProfile(
        editorId,
        { slug: 'ada-uses', name: 'Ada Uses', bio: '', photo: other, links: '' },
        { updatedAt: row?.updated_at ?? null },
      ),
    );
    expect(await removeWords(hash)).toBe('deleted');
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('a draft whose social image left the library is not published', async () => {
    const hash = await imageOf('#3366aa', 'Gone card');
    await withStore(folio, (store) =>
      store.saveDraft({
        slug: 'gone-card',
        title: 'Gone card',
        summary: '',
        body: 'Text.',
        expectedVersion: null,
        editor: EDITOR.email,
        seo: seo(hash),
      }),
    );
    // As a damaged or hand-edited database has it (the library refuses this delete).
    const db = await folio.database();
    await db.query`DELETE FROM media_variants WHERE media_id IN (SELECT id FROM media WHERE hash = ${hash})`;
    await db.query`DELETE FROM media WHERE hash = ${hash}`;
    const words = await withStore(folio, async (store) => {
      try {
        await store.publish('gone-card');
      } catch (error) {
        return (error as Error).message;
      }
      return 'published';
    });
    expect(words).toBe(
      `Not published: the page names an image that is not in the media library (the social image /media/${hash}: deleted, misspelt or never uploaded). Take it out or upload the image again, then publish.`,
    );
    expect((await fetch(`${folio.url}/gone-card`)).status).toBe(404);
  });
});
