import { describe, expect, spyOn, test } from 'bun:test';
import path from 'node:path';
import sharp from 'sharp';
import { renderMarkdown } from '../markdown/markdown';
import { decoder } from './images';
import { processImage, variantTargets } from './media';
import { mediaAddressesIn, missingMediaMessage, pictureHtml } from './media-refs';

/** A one-colour image of this size, in this format, processed as an upload is. */
async function processed(width: number, height: number, format: 'png' | 'avif') {
  const bytes = await sharp({ create: { width, height, channels: 3, background: '#996633' } })
    .toFormat(format)
    .toBuffer();
  return processImage(new Uint8Array(bytes));
}

const widths = (width: number) =>
  variantTargets(width).map((target) => `${target.name}@${target.width}`);

describe('the widths an image is made at', () => {
  test('every step narrower than the image, then the image at its own width', () => {
    expect(widths(2400)).toEqual(['480@480', '720@720', '960@960', '1600@1600']);
    expect(widths(1000)).toEqual(['480@480', '720@720', '960@960', '1600@1000']);
    // A 600 px upload on a 2× phone needs more than 480: it is offered at 600 too.
    expect(widths(600)).toEqual(['480@480', '720@600']);
  });

  test('an image as wide as a step, or narrower than the first, is made once at its width', () => {
    expect(widths(720)).toEqual(['480@480', '720@720']);
    expect(widths(300)).toEqual(['480@300']);
    expect(widths(1)).toEqual(['480@1']);
  });
});

describe('the copies made at upload', () => {
  test('never taller than the original as kept (a 1 × 4000 px strip)', async () => {
    const image = await processed(1, 4000, 'png');
    expect([image.width, image.height]).toEqual([1, 2400]);
    for (const variant of image.variants) {
      const meta = await sharp(variant.data).metadata();
      expect(`${variant.name} ${meta.width}×${meta.height}`).toBe(`${variant.name} 1×2400`);
      expect([variant.width, variant.height]).toEqual([1, 2400]);
    }
  });
});

// Fourth hostile review: an 879-byte 6000 × 6000 AVIF was decoded once for each of its nine
// copies (120 s, 881 MB) while every other upload waited; an 11-frame GIF was "damaged".
describe('the cost of reading an upload, bounded', () => {
  const fixture = (name: string) =>
    Bun.file(path.join(import.meta.dir, 'fixtures', name))
      .bytes()
      .then((bytes) => new Uint8Array(bytes));
  const refusal = (bytes: Uint8Array) =>
    processImage(bytes).then(
      () => 'accepted',
      (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
    );

  test('a huge AVIF is refused as too large from its header, before it is decoded', async () => {
    const decode = spyOn(decoder, 'decode');
    try {
      expect(await refusal(await fixture('one-colour-6000.avif'))).toBe(
        'invalid: That AVIF image is too large: 6000 × 6000 pixels; Folio takes AVIF images of at most 24 million pixels (they are slow to read). Make it smaller, or save it as JPEG or PNG, and upload it again.',
      );
      expect(decode).not.toHaveBeenCalled();
    } finally {
      decode.mockRestore();
    }
  }, 30_000);

  test('an animation with too many frames is too large, not damaged', async () => {
    expect(await refusal(await fixture('eleven-frames-2000.gif'))).toBe(
      'invalid: That animation is too large: 11 frames of 2000 × 2000 pixels; Folio takes at most 40 million pixels in all its frames together. Make it shorter or smaller and upload it again.',
    );
  }, 30_000);

  test('an upload is decoded once, however many copies are made of it', async () => {
    const decode = spyOn(decoder, 'decode');
    try {
      const image = await processed(1700, 900, 'avif');
      // The original, then AVIF and WebP at 480, 720, 960 and 1600: nine files, one decode.
      expect(image.variants.map((variant) => variant.name)).toEqual([
        'original.avif',
        '480.avif',
        '480.webp',
        '720.avif',
        '720.webp',
        '960.avif',
        '960.webp',
        '1600.avif',
        '1600.webp',
      ]);
      expect(decode).toHaveBeenCalledTimes(1);
    } finally {
      decode.mockRestore();
    }
  }, 30_000);
});

describe('the sources a page offers', () => {
  test('one candidate a width: an AVIF upload’s original is not listed beside its own-width copy', async () => {
    const image = await processed(600, 300, 'avif');
    const html = pictureHtml(
      {
        id: 1,
        hash: image.hash,
        filename: 'band.avif',
        alt: 'A band',
        format: image.format,
        width: image.width,
        height: image.height,
        bytes: 0,
        createdAt: '',
        createdBy: null,
        src: `/media/${image.hash}/original.avif`,
        variants: image.variants,
      },
      'A band',
      { first: true },
    );
    const avifSet = /<source type="image\/avif" srcset="([^"]*)"/.exec(html)?.[1];
    expect(avifSet).toBe(`/media/${image.hash}/480.avif 480w, /media/${image.hash}/720.avif 600w`);
  });
});

// Fourth hostile pass: publishing and deleting read `/media/<hash>` from the Markdown, so an
// entity or a capital letter got a broken image published, and a hash in code was counted.
describe('the /media/ addresses a page points at, read from its HTML', () => {
  const M = '0123456789abcdef0123456789abcdef';
  const addresses = async (markdown: string) =>
    mediaAddressesIn(await renderMarkdown(markdown, { media: new Map() })).map(
      (address) => `${address.path} ${address.hash ?? '-'}`,
    );

  test('as the browser will ask for them: entities decoded, escapes and capitals kept', async () => {
    expect(await addresses(`![x](/media/&#48;${M.slice(1)})`)).toEqual([`/media/${M} ${M}`]);
    expect(await addresses(`![x](/media/${M.toUpperCase()})`)).toEqual([
      `/media/${M.toUpperCase()} -`,
    ]);
    expect(await addresses(`![x](/media/%30${M.slice(1)})`)).toEqual([`/media/%30${M.slice(1)} -`]);
    expect(await addresses(`![x](/media/${M}/original.png?x#y)`)).toEqual([
      `/media/${M}/original.png ${M}`,
    ]);
  });

  test('links and this site’s absolute URLs count; code, other hosts’ files and text do not', async () => {
    expect(await addresses(`[the file](/media/${M})`)).toEqual([`/media/${M} ${M}`]);
    expect(await addresses(`![x](http://127.0.0.1/media/${M})`)).toEqual([`/media/${M} ${M}`]);
    expect(await addresses(`\`\`\`\n![x](/media/${M})\n\`\`\``)).toEqual([]);
    expect(await addresses(`Inline \`/media/${M}\` and plain /media/${M} text.`)).toEqual([]);
    expect(await addresses('![x](https://cdn.example.com/media/cat.png)')).toEqual([]);
  });

  // Second hostile pass: a comma in a src or href was split off as in a srcset, and a
  // highlighted code sample's text (` src="/media/…"` in a comment) was read as an attribute.
  test('a comma belongs to a src or href; highlighted code is text', async () => {
    expect(await addresses(`![a](/media/${M},x)`)).toEqual([`/media/${M},x -`]);
    // No route answers it (a file name has no comma): it names nothing in the library.
    expect(await addresses(`[a](/media/${M}/original.png,1)`)).toEqual([
      `/media/${M}/original.png,1 -`,
    ]);
    expect(await addresses(`\`\`\`python\n# see src="/media/${M}"\n\`\`\``)).toEqual([]);
    expect(await addresses(`\`\`\`ts\n// <img src="/media/${M}">\n\`\`\``)).toEqual([]);
    expect(await addresses(`\`\`\`bash\necho 'href="/media/${M}"'\n\`\`\``)).toEqual([]);
  });

  test('every srcset candidate of a library image', async () => {
    const html =
      '<picture><source type="image/avif" srcset="/media/' +
      `${M}/480.avif 480w, /media/${M}/720.avif 720w"><img src="/media/${M}/original.png"></picture>`;
    expect(mediaAddressesIn(html).map((address) => address.name)).toEqual([
      '480.avif',
      '720.avif',
      'original.png',
    ]);
  });
});

test('a refusal naming hundreds of missing images names the first five', () => {
  const missing = Array.from(
    { length: 500 },
    (_, i) => `/media/${i.toString(16).padStart(32, '0')}`,
  );
  const message = missingMediaMessage(missing);
  expect(message).toContain('names 500 images');
  expect(message).toContain(`${missing[4]} and 495 more`);
  expect(message).not.toContain(missing[5] as string);
  expect(message.length).toBeLessThan(600);
});
