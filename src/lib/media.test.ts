import { describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { processImage, variantTargets } from './media';
import { pictureHtml } from './media-refs';

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
