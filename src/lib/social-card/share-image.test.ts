import { describe, expect, test } from 'bun:test';
import type { MediaItem } from '../media/media-refs';
import { pictureHtml } from '../media/media-refs';
import { firstImageIn, libraryImage, thumbnailIn } from './share-image';

const item = (format: MediaItem['format'], original: string): MediaItem => ({
  id: 1,
  hash: 'a'.repeat(32),
  filename: `photo.${format}`,
  alt: 'A "quoted" & <odd> alt',
  format,
  width: 2000,
  height: 1000,
  bytes: 1,
  createdAt: '2026-01-01T00:00:00Z',
  createdBy: null,
  src: `/media/${'a'.repeat(32)}/${original}`,
  variants: [
    { name: original, contentType: `image/${format}`, width: 2000, height: 1000 },
    { name: '960.webp', contentType: 'image/webp', width: 960, height: 480 },
    { name: '1600.webp', contentType: 'image/webp', width: 1600, height: 800 },
    { name: '1600.avif', contentType: 'image/avif', width: 1600, height: 800 },
  ],
});

describe('firstImageIn', () => {
  test('the first uploaded picture in the HTML, its size and alt text as text', () => {
    const html = `<p>Text</p>${pictureHtml(item('jpeg', 'original.jpg'), '', { first: true })}<p>${pictureHtml({ ...item('png', 'original.png'), hash: 'b'.repeat(32), src: `/media/${'b'.repeat(32)}/original.png` }, 'second', { first: false })}</p>`;
    expect(firstImageIn(html)).toEqual({
      path: `/media/${'a'.repeat(32)}/original.jpg`,
      width: 2000,
      height: 1000,
      alt: 'A "quoted" & <odd> alt',
      generated: false,
    });
  });

  test('an AVIF upload stands as its widest WebP copy, which share previews read', () => {
    const html = pictureHtml(item('avif', 'original.avif'), 'An AVIF', { first: true });
    expect(firstImageIn(html)).toMatchObject({
      path: `/media/${'a'.repeat(32)}/1600.webp`,
      width: 1600,
      height: 800,
    });
  });

  test('text that merely reads like an image is none', () => {
    expect(firstImageIn('<p>No images here.</p>')).toBeNull();
    expect(
      firstImageIn('<pre><code>&lt;picture&gt;&lt;img src="/media/aaaa"&gt;</code></pre>'),
    ).toBeNull();
  });
});

test('libraryImage prefers the original unless it is AVIF', () => {
  expect(libraryImage(item('png', 'original.png'))?.path).toEndWith('/original.png');
  expect(libraryImage(item('avif', 'original.avif'))?.path).toEndWith('/1600.webp');
});

// Hostile pass of issue 27: listings loaded each post's original photograph as a thumbnail.
test('a listing’s thumbnail is the narrowest WebP copy, never the original', () => {
  const html = pictureHtml(item('jpeg', 'original.jpg'), 'A photo', { first: true });
  expect(thumbnailIn(html)).toMatchObject({
    path: `/media/${'a'.repeat(32)}/960.webp`,
    width: 960,
    height: 480,
  });
  expect(thumbnailIn('<p>No images here.</p>')).toBeNull();
});
