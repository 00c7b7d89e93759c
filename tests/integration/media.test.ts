// Uploaded images against the server as the README starts it (issue 14): the media library's
// form without JavaScript, the variants and how they are served, the <picture> a published
// page renders, and every bad file the issue names refused with nothing stored.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import sharp from 'sharp';
import { addEditor } from '../../src/lib/editors/accounts';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const EDITOR = { email: 'media@example.com', password: 'the media passphrase' };
let folio: RunningFolio;
let cookie = '';

beforeAll(async () => {
  folio = await startFolio();
  await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
  cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

const LIBRARY = '/preview?media';

async function upload(file: Blob, alt: string, { withCookie = cookie, origin = '' } = {}) {
  const page = await fetch(`${folio.url}${LIBRARY}`, { headers: { cookie } });
  const form = await formWithButton(await page.text(), 'Upload');
  return submitForm(`${folio.url}${LIBRARY}`, form, {
    cookie: withCookie,
    set: { file, alt },
    button: 'Upload',
    headers: origin ? { origin } : {},
  });
}

async function mediaCount(): Promise<number> {
  const [row] = await (await folio.database()).query<{ n: number | string }>`
    SELECT COUNT(*) AS n FROM media`;
  return Number(row?.n);
}

/** A photograph-like JPEG with GPS coordinates and a camera name in its EXIF. */
async function photoWithGps(width = 2000, height = 1500): Promise<File> {
  const bytes = await sharp({
    create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#f5c542"/></svg>`,
        ),
      },
    ])
    .jpeg()
    .withExif({
      IFD0: { Make: 'FolioCam', Model: 'Test 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' },
    })
    .toBuffer();
  return new File([new Uint8Array(bytes)], 'holiday photo.jpg', { type: 'image/jpeg' });
}

/** A PNG whose header claims 20 000 × 20 000 pixels: a decompression bomb. */
function pngBomb(): File {
  const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  const chunk = (type: string, data: number[]) => {
    const body = [...new TextEncoder().encode(type), ...data];
    return [...u32(data.length), ...body, ...u32(Bun.hash.crc32(new Uint8Array(body)))];
  };
  const ihdr = [...u32(20_000), ...u32(20_000), 8, 2, 0, 0, 0];
  const idat = [...Bun.deflateSync(new Uint8Array(1024))];
  const bytes = [
    137,
    80,
    78,
    71,
    13,
    10,
    26,
    10,
    ...chunk('IHDR', ihdr),
    ...chunk('IDAT', idat),
    ...chunk('IEND', []),
  ];
  return new File([new Uint8Array(bytes)], 'bomb.png', { type: 'image/png' });
}

let hash = '';

describe('uploading, without JavaScript', () => {
  test('a JPEG is kept once, with its metadata gone, as variants at each width', async () => {
    const response = await upload(await photoWithGps(), 'A yellow sun on a blue sky');
    expect(response.status).toBe(200);
    const html = await response.text();
    const snippet = /!\[A yellow sun on a blue sky\]\(\/media\/([0-9a-f]{32})\)/.exec(html);
    expect(snippet, 'the Markdown to use it').not.toBeNull();
    hash = snippet?.[1] ?? '';
    expect(html).toContain('holiday photo.jpg');

    const names = (
      await (
        await folio.database()
      ).query<{ name: string; width: number }>`
        SELECT v.name, v.width FROM media_variants v JOIN media m ON m.id = v.media_id
        WHERE m.hash = ${hash} ORDER BY v.name`
    ).map((row) => `${row.name}@${row.width}`);
    expect(names).toEqual([
      '1600.avif@1600',
      '1600.webp@1600',
      '480.avif@480',
      '480.webp@480',
      '720.avif@720',
      '720.webp@720',
      '960.avif@960',
      '960.webp@960',
      'original.jpg@2000',
    ]);
    // The same file again is the same image.
    await upload(await photoWithGps(), 'Again');
    expect(await mediaCount()).toBe(1);
  });

  test('served immutable, typed, nosniff, with an ETag and 304; no EXIF or GPS left', async () => {
    const original = await fetch(`${folio.url}/media/${hash}/original.jpg`);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/jpeg');
    expect(original.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(original.headers.get('x-content-type-options')).toBe('nosniff');
    // Nothing runs in it, and no page frames it (hostile pass: frame-ancestors does not fall
    // back to default-src).
    expect(original.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    const etag = original.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const meta = await sharp(new Uint8Array(await original.arrayBuffer())).metadata();
    expect(meta.width).toBe(2000);
    expect(meta.exif).toBeUndefined();
    const again = await fetch(`${folio.url}/media/${hash}/original.jpg`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    const avif = await fetch(`${folio.url}/media/${hash}/960.avif`);
    expect(avif.headers.get('content-type')).toBe('image/avif');
    expect((await sharp(new Uint8Array(await avif.arrayBuffer())).metadata()).width).toBe(960);
    // The bare address leads to the original; unknown ones are 404, never an error.
    const bare = await fetch(`${folio.url}/media/${hash}`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe(`/media/${hash}/original.jpg`);
    expect((await fetch(`${folio.url}/media/${hash}/9999.webp`)).status).toBe(404);
    expect((await fetch(`${folio.url}/media/${'0'.repeat(32)}/original.jpg`)).status).toBe(404);
    expect(
      (await fetch(`${folio.url}/media/${hash}/original.jpg`, { method: 'POST' })).status,
    ).toBe(405);
  });
});

describe('on a published page', () => {
  test('a <picture> with AVIF and WebP srcsets, width and height, lazy after the first', async () => {
    await withStore(folio, (store) =>
      store.putPage(
        {
          slug: 'with-images',
          title: 'With images',
          summary: '',
          body: `![First](/media/${hash})\n\nText.\n\n![Second](/media/${hash})`,
        },
        { publish: true },
      ),
    );
    const response = await fetch(`${folio.url}/with-images`);
    const html = await response.text();
    // The article as HTML (the page's data repeats it, escaped, further down).
    const article = html.slice(html.indexOf('<article'), html.indexOf('</article>'));
    const pictures = article.match(/<picture>.*?<\/picture>/g) ?? [];
    expect(pictures).toHaveLength(2);
    const [first = '', second = ''] = pictures;
    expect(first).toContain(
      `<source type="image/avif" srcset="/media/${hash}/480.avif 480w, /media/${hash}/720.avif 720w, /media/${hash}/960.avif 960w, /media/${hash}/1600.avif 1600w"`,
    );
    expect(first).toContain('type="image/webp"');
    expect(first).toContain(
      `<img src="/media/${hash}/original.jpg" alt="First" width="2000" height="1500" fetchpriority="high" decoding="async">`,
    );
    expect(second).toContain('loading="lazy"');
    expect(second).not.toContain('fetchpriority');
    // Images come from the site alone (and what IMAGE_ORIGINS allows): not from any host.
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("img-src 'self';");
    // eval() is for React's development build under `bun run dev` only (dev-loop.test.ts).
    expect(csp).not.toContain('unsafe-eval');
  });

  test('delete is refused while visitors see it, and the alt text can be changed', async () => {
    const library = await (await fetch(`${folio.url}${LIBRARY}`, { headers: { cookie } })).text();
    expect(library).toContain('/with-images</a> (published)');
    const form = await formWithButton(library, 'Save alt text');
    const refused = await submitForm(`${folio.url}${LIBRARY}`, form, {
      cookie,
      button: 'Delete',
    });
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/preview?media&notice=media-in-use');
    expect((await fetch(`${folio.url}/media/${hash}/original.jpg`)).status).toBe(200);
    const renamed = await submitForm(`${folio.url}${LIBRARY}`, form, {
      cookie,
      set: { alt: 'The sun, drawn' },
      button: 'Save alt text',
    });
    expect(renamed.headers.get('location')).toBe('/preview?media&notice=media-saved');
    expect(await (await fetch(`${folio.url}${LIBRARY}`, { headers: { cookie } })).text()).toContain(
      'value="The sun, drawn"',
    );
  });

  // The hostile pass's repro: an edit kept NUL, line breaks and a bidi override as typed (a 500
  // on PostgreSQL, which refuses a NUL); an edit is kept as an upload is: one clean line.
  test('an alt text edit with NUL, a line break and a bidi override is kept as one clean line', async () => {
    const library = await (await fetch(`${folio.url}${LIBRARY}`, { headers: { cookie } })).text();
    const form = await formWithButton(library, 'Save alt text');
    const edited = await submitForm(`${folio.url}${LIBRARY}`, form, {
      cookie,
      set: { alt: 'line1\nline2\u0000nul\u202eevil' },
      button: 'Save alt text',
    });
    expect(edited.status).toBe(303);
    expect(edited.headers.get('location')).toBe('/preview?media&notice=media-saved');
    const [row] = await (await folio.database()).query<{ alt: string }>`
      SELECT alt FROM media WHERE hash = ${hash}`;
    expect(row?.alt).toBe('line1 line2nulevil');
  });
});

/** An image kept beside the media unit tests (src/lib/media/fixtures/README.md says how made). */
const fixture = async (name: string) =>
  new File(
    [await Bun.file(path.join(import.meta.dir, '../../src/lib/media/fixtures', name)).bytes()],
    name,
  );

describe('bad files and bad requests: a clear 4xx, nothing stored', () => {
  const cases: [string, () => Promise<File> | File, number, string][] = [
    [
      'a PHP file named .png',
      () => new File(['<?php system($_GET["c"]); ?>'], 'shell.png', { type: 'image/png' }),
      422,
      'not an image Folio can use',
    ],
    [
      'an SVG with a script',
      () =>
        new File(
          ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
          'logo.svg',
          { type: 'image/svg+xml' },
        ),
      422,
      'SVG files are not accepted',
    ],
    [
      'a truncated JPEG',
      async () => {
        const whole = new Uint8Array(await (await photoWithGps(800, 600)).arrayBuffer());
        return new File([whole.slice(0, Math.floor(whole.length / 2))], 'cut.jpg');
      },
      422,
      'damaged or cut short',
    ],
    ['a 20 000 × 20 000 pixel PNG', pngBomb, 422, 'at most 40 million pixels'],
    // Fourth hostile review: decoded nine times (120 s) while every upload waited; "damaged".
    [
      'a 581-byte AVIF of 6000 × 6000 pixels',
      () => fixture('one-colour-6000.avif'),
      422,
      'That AVIF image is too large: 6000 × 6000 pixels',
    ],
    [
      'a GIF of 11 frames of 2000 × 2000 pixels',
      () => fixture('eleven-frames-2000.gif'),
      422,
      'That animation is too large: 11 frames',
    ],
    [
      'a file of 10.5 MB (over the 10 MB limit)',
      () => new File([new Uint8Array(10.5 * 1024 * 1024)], 'big.jpg'),
      413,
      'images may be at most 10 MB',
    ],
    [
      'a file of 30 MB (refused unread)',
      () => new File([new Uint8Array(30 * 1024 * 1024)], 'huge.jpg'),
      413,
      'larger than Folio takes',
    ],
  ];
  for (const [what, make, status, words] of cases)
    test(what, async () => {
      const before = await mediaCount();
      const response = await upload(await make(), 'Something');
      expect(response.status).toBe(status);
      expect(await response.text()).toContain(words);
      expect(await mediaCount()).toBe(before);
    });

  test('no alt text, no session, another origin', async () => {
    const before = await mediaCount();
    const photo = await photoWithGps(400, 300);
    const noAlt = await upload(photo, '  ');
    expect(noAlt.status).toBe(422);
    expect(await noAlt.text()).toContain('Describe the image');
    const signedOut = await upload(photo, 'Signed out', { withCookie: '' });
    expect(signedOut.status).toBe(401);
    await signedOut.arrayBuffer();
    const foreign = await upload(photo, 'Foreign', { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    await foreign.arrayBuffer();
    expect(await mediaCount()).toBe(before);
    // Still serving, and nothing above was a bug.
    expect((await fetch(`${folio.url}/about`)).status).toBe(200);
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

/** A small one-colour PNG: a different colour is a different image. */
const tinyPng = async (colour: string) =>
  new Uint8Array(
    await sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
      .png()
      .toBuffer(),
  );

describe('second hostile pass (issue 14): media', () => {
  test('a file part without a name is kept as "image", never a 500', async () => {
    const response = await upload(new Blob([await tinyPng('#112233')]), 'Nameless');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Uploaded.');
    const [row] = await (await folio.database()).query<{ filename: string }>`
      SELECT filename FROM media WHERE alt = 'Nameless'`;
    expect(row?.filename).toBeTruthy();
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('alt text with NUL, line breaks, brackets, stars and a trailing backslash: one safe line', async () => {
    const response = await upload(
      new File([await tinyPng('#445566')], 'odd.png'),
      'two\r\n\r\nlines ] with *stars* and\u0000 nul \\',
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    const hash = /\/media\/([0-9a-f]{32})\)/.exec(html)?.[1] ?? '';
    const [row] = await (await folio.database()).query<{ alt: string }>`
      SELECT alt FROM media WHERE hash = ${hash}`;
    expect(row?.alt).toBe('two lines ] with *stars* and nul \\');
    // The Markdown the library offers shows the image, with that alt text, on a page.
    const markdown = (await (await fetch(`${folio.url}${LIBRARY}`, { headers: { cookie } })).text())
      .match(new RegExp(`!\\[[^<]*\\]\\(/media/${hash}\\)`))?.[0]
      ?.replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
    expect(markdown).toBeDefined();
    await withStore(folio, (store) =>
      store.putPage(
        { slug: 'odd-alt', title: 'Odd alt', summary: '', body: markdown ?? '' },
        { publish: true },
      ),
    );
    const page = await (await fetch(`${folio.url}/odd-alt`)).text();
    expect(page).toContain('alt="two lines ] with *stars* and nul \\"');
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('NUL in a page body is dropped, never a 500 (PostgreSQL refused it)', async () => {
    await withStore(folio, (store) =>
      store.putPage(
        { slug: 'nul-body', title: 'Nul\u0000 title', summary: '', body: 'a\u0000b' },
        { publish: true },
      ),
    );
    const page = await withStore(folio, (store) => store.getPage('nul-body', { draft: false }));
    expect(page?.bodyMarkdown).toBe('ab');
    expect(page?.title).toBe('Nul title');
  });

  test('the same file again says it was already there, with its alt text', async () => {
    const bytes = await tinyPng('#778899');
    await upload(new File([bytes], 'first.png'), 'First words');
    const again = await upload(new File([bytes], 'again.png'), 'Other words');
    const html = await again.text();
    expect(html).toContain('This image was already in the library');
  });

  test('an image a draft uses cannot be deleted (publishing it later would break it)', async () => {
    const response = await upload(new File([await tinyPng('#aa3311')], 'draft.png'), 'Draft only');
    const hash = /\/media\/([0-9a-f]{32})\)/.exec(await response.text())?.[1] ?? '';
    await withStore(folio, (store) =>
      store.putPage({
        slug: 'draft-image',
        title: 'Draft image',
        summary: '',
        body: `![x](/media/${hash})`,
      }),
    );
    const library = await (await fetch(`${folio.url}${LIBRARY}`, { headers: { cookie } })).text();
    const forms = (await import('../forms')).formsIn;
    const form = (await forms(library)).find((candidate) =>
      candidate.fields.some(([name, value]) => name === 'hash' && value === hash),
    );
    expect(form).toBeDefined();
    const refused = await submitForm(`${folio.url}${LIBRARY}`, form as never, {
      cookie,
      button: 'Delete',
    });
    expect(refused.headers.get('location')).toBe('/preview?media&notice=media-in-use');
    expect((await fetch(`${folio.url}/media/${hash}`, { redirect: 'manual' })).status).toBe(308);
  });

  test('a 304 only for an image that exists, and only for its own ETag', async () => {
    const missing = await fetch(`${folio.url}/media/${'f'.repeat(32)}/original.jpg`, {
      headers: { 'if-none-match': `"${'f'.repeat(32)}-original.jpg"` },
    });
    expect(missing.status).toBe(404);
    const padded = await fetch(`${folio.url}/media/${hash}/original.jpg`, {
      headers: { 'if-none-match': `xx"${hash}-original.jpg"yy` },
    });
    expect(padded.status).toBe(200);
    await padded.arrayBuffer();
  });

  test('the feed names every image address absolutely, srcset included', async () => {
    const feed = await (await fetch(`${folio.url}/feed.xml`)).text();
    const srcsets = [...feed.matchAll(/srcset=&#34;([^&]*)&#34;/g)].map((m) => m[1] ?? '');
    expect(srcsets.length).toBeGreaterThan(0);
    for (const set of srcsets)
      for (const candidate of set.split(','))
        expect(candidate.trim()).toStartWith(`${folio.url}/media/`);
  });

  test('a chunked multipart body that does not parse is a 400 on any page, never a 500', async () => {
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('junk'));
        controller.close();
      },
    });
    const response = await fetch(`${folio.url}/about`, {
      method: 'POST',
      body,
      headers: {
        origin: folio.url,
        'content-type': 'multipart/form-data; boundary=XX',
      },
    });
    expect(response.status).toBe(400);
    await response.arrayBuffer();
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

// The third hostile pass (issue 14): an alt text edit refused without JavaScript redirected and
// lost what was typed; an image used only by an old version could be deleted, and restoring
// that version and publishing it showed visitors a broken image.
describe('what an editor typed, and images gone from the library', () => {
  async function formFor(hash: string) {
    const library = await (await fetch(`${folio.url}${LIBRARY}`, { headers: { cookie } })).text();
    const form = (await (await import('../forms')).formsIn(library)).find((candidate) =>
      candidate.fields.some(([name, value]) => name === 'hash' && value === hash),
    );
    if (!form) throw new Error(`no form for ${hash} in the library`);
    return form;
  }

  async function uploadedHash(colour: string, alt: string): Promise<string> {
    const response = await upload(new File([await tinyPng(colour)], `${alt}.png`), alt);
    const hash = /\/media\/([0-9a-f]{32})\)/.exec(await response.text())?.[1];
    if (!hash) throw new Error('the upload answered without the image');
    return hash;
  }

  test('a refused alt text comes back in its field, with the reason, without JavaScript', async () => {
    const hash = await uploadedHash('#225577', 'Kept alt');
    const typed = `A long description of a dark blue square. ${'More words. '.repeat(25)}`;
    const refused = await submitForm(`${folio.url}${LIBRARY}`, await formFor(hash), {
      cookie,
      set: { alt: typed },
      button: 'Save alt text',
    });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(html).toContain('Keep the description to 300 characters at most.');
    expect(html).toContain(`value="${typed}"`);
    const [row] = await (await folio.database()).query<{ alt: string }>`
      SELECT alt FROM media WHERE hash = ${hash}`;
    expect(row?.alt).toBe('Kept alt');
  });

  // Issue 27's leftovers: deleting the default social image or the favicon was allowed.
  test('an image Site settings use is not deleted: the library says where, then it can be', async () => {
    // Large enough for a share card (Site settings refuse a smaller default social image).
    const card = await sharp({
      create: { width: 400, height: 300, channels: 3, background: '#552288' },
    })
      .png()
      .toBuffer();
    const social = /\/media\/([0-9a-f]{32})\)/.exec(
      await (
        await upload(new File([new Uint8Array(card)], 'social.png'), 'Settings social')
      ).text(),
    )?.[1] as string;
    const icon = await uploadedHash('#885522', 'Settings icon');
    const before = await withStore(folio, (store) => store.getSiteSettings());
    await withStore(folio, (store) =>
      store.saveSiteSettings({ ...before, socialImage: social, favicon: icon }),
    );
    try {
      const library = await (await fetch(`${folio.url}${LIBRARY}`, { headers: { cookie } })).text();
      const text = library.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
      expect(text).toContain('In Site settings: the site’s default social image.');
      expect(text).toContain('In Site settings: the site’s favicon (the browser tab’s icon).');
      for (const hash of [social, icon]) {
        // A form from before (its button was enabled then), or a forged post.
        const refused = await submitForm(`${folio.url}${LIBRARY}`, await formFor(hash), {
          cookie,
          button: 'Delete',
        });
        expect(refused.status).toBe(303);
        expect(refused.headers.get('location')).toBe('/preview?media&notice=media-in-settings');
        expect((await fetch(`${folio.url}/media/${hash}`, { redirect: 'manual' })).status).toBe(
          308,
        );
      }
      const notice = await (
        await fetch(`${folio.url}${LIBRARY}&notice=media-in-settings`, { headers: { cookie } })
      ).text();
      expect(notice).toContain('Not deleted: Site settings use this image');
      // The store's own words name the role (the CLI and any other caller get them).
      const words = await withStore(folio, async () => {
        const { createMediaStore } = await import('../../src/lib/media/media');
        try {
          await createMediaStore(await folio.database()).remove(icon);
        } catch (error) {
          return (error as Error).message;
        }
        return 'deleted';
      });
      expect(words).toBe(
        'Site settings use this image as the site’s favicon (the browser tab’s icon): choose another there, or none, then delete it.',
      );
    } finally {
      await withStore(folio, (store) => store.saveSiteSettings(before));
    }
    // No longer in the settings: deleted as any unused image.
    const form = await formFor(social);
    const deleted = await submitForm(`${folio.url}${LIBRARY}`, form, { cookie, button: 'Delete' });
    expect(deleted.headers.get('location')).toBe('/preview?media&notice=media-deleted');
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('an image whose original is missing is a 404 at its address, never a year-long redirect', async () => {
    const hash = await uploadedHash('#118844', 'Green square');
    expect((await fetch(`${folio.url}/media/${hash}`, { redirect: 'manual' })).status).toBe(308);
    // As a damaged or half-copied database would have it.
    await (await folio.database()).query`
      DELETE FROM media_variants WHERE name LIKE 'original.%'
        AND media_id = (SELECT id FROM media WHERE hash = ${hash})`;
    const gone = await fetch(`${folio.url}/media/${hash}`, { redirect: 'manual' });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('cache-control')).toBe('no-store');
    await gone.arrayBuffer();
    // Nor is a link to that address published (second hostile pass).
    const refused = await withStore(folio, async (store) => {
      await store.putPage({
        slug: 'full-size',
        title: 'Full size',
        summary: '',
        body: `[The full size](/media/${hash})`,
      });
      return store.publish('full-size').then(
        () => 'published',
        (error: { code?: string }) => error.code,
      );
    });
    expect(refused).toBe('missing-media');
  });

  // Fourth hostile pass: a page showing an image through an entity (`/media/&#48;…`) did not
  // count as using it, so the image could be deleted under visitors' eyes; and deleting a hash
  // the library never had said "Image deleted."
  test('an image a page shows through an entity is in use; an unknown hash is not "deleted"', async () => {
    const hash = await uploadedHash('#aa7700', 'Ochre square');
    const spelt = `/media/&#${hash.charCodeAt(0)};${hash.slice(1)}`;
    await withStore(folio, (store) =>
      store.putPage(
        { slug: 'entity-image', title: 'Entity image', summary: '', body: `![Ochre](${spelt})` },
        { publish: true },
      ),
    );
    expect(await (await fetch(`${folio.url}/entity-image`)).text()).toContain(
      `src="/media/${hash}"`,
    );
    const form = await formFor(hash);
    const refused = await submitForm(`${folio.url}${LIBRARY}`, form, { cookie, button: 'Delete' });
    expect(refused.headers.get('location')).toBe('/preview?media&notice=media-in-use');
    expect((await fetch(`${folio.url}/media/${hash}`, { redirect: 'manual' })).status).toBe(308);

    const unknown = submitForm(
      `${folio.url}${LIBRARY}`,
      {
        ...form,
        fields: form.fields.map(([name, value]) => [
          name,
          name === 'hash' ? 'a'.repeat(32) : value,
        ]),
      },
      { cookie, button: 'Delete' },
    );
    expect((await unknown).headers.get('location')).toBe('/preview?media&notice=media-gone');
  });

  test('an old version whose image was deleted is restored with a warning and not published', async () => {
    const hash = await uploadedHash('#663399', 'Purple square');
    await withStore(folio, async (store) => {
      const base = { slug: 'was-pictured', title: 'Was pictured', summary: '' };
      await store.putPage({ ...base, body: `![Purple square](/media/${hash})` }, { publish: true });
      await store.putPage({ ...base, body: 'No picture now.' }, { publish: true });
    });
    const deleted = await submitForm(`${folio.url}${LIBRARY}`, await formFor(hash), {
      cookie,
      button: 'Delete',
    });
    expect(deleted.headers.get('location')).toBe('/preview?media&notice=media-deleted');

    const page = (address: string) => fetch(`${folio.url}${address}`, { headers: { cookie } });
    const history = await (await page('/preview/was-pictured?history')).text();
    const oldest = [...history.matchAll(/href="(\/preview\/was-pictured\?history&amp;rev=\d+)"/g)]
      .at(-1)?.[1]
      ?.replaceAll('&amp;', '&');
    const shown = await (await page(oldest ?? '')).text();
    const restored = await submitForm(
      `${folio.url}${oldest}`,
      await formWithButton(shown, 'Restore as draft'),
      { cookie },
    );
    expect(restored.headers.get('location')).toBe(
      '/preview/was-pictured?edit&notice=restored-missing-media',
    );
    const editor = await (await page(restored.headers.get('location') ?? '')).text();
    expect(editor).toContain('It shows an image deleted from the media library since');

    // Publish from the editor: refused, the text kept in the form with the reason.
    const published = await submitForm(
      `${folio.url}/preview/was-pictured?edit`,
      await formWithButton(editor, 'Save draft'),
      { cookie, set: { intent: 'publish' } },
    );
    expect(published.status).toBe(422);
    const answer = await published.text();
    expect(answer).toContain(`image that is not in the media library (/media/${hash}`);
    expect(answer).toContain(`![Purple square](/media/${hash})`);

    // Publish from the banner (the page without the editor open): refused, said why.
    const preview = await (await page('/preview/was-pictured')).text();
    const fromBanner = await submitForm(
      `${folio.url}/preview/was-pictured`,
      await formWithButton(preview, 'Publish this draft'),
      { cookie },
    );
    expect(fromBanner.headers.get('location')).toBe('/preview/was-pictured?notice=missing-media');
    expect(await (await fetch(`${folio.url}/was-pictured`)).text()).toContain('No picture now.');
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
