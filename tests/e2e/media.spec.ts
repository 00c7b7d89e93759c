// Images as an editor adds them and a visitor sees them (issue 14): upload in the media
// library with and without JavaScript, insert from the editor's Image menu, publish, and the
// public page shows a sized, responsive picture that loads.
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';

async function photo(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 1200, height: 800, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

async function uploadInLibrary(page: Page, name: string, bytes: Buffer, alt: string) {
  await page.goto('/preview?media');
  await page
    .getByLabel(/^Image \(JPEG/)
    .setInputFiles({ name, mimeType: 'image/jpeg', buffer: bytes });
  await page.getByLabel(/^Alt text: what the image shows/).fill(alt);
  await page.getByRole('button', { name: 'Upload' }).click();
}

test('upload, insert from the editor, publish: visitors get a sized, responsive picture', async ({
  page,
  signIn,
  seedPage,
}) => {
  await signIn(page);
  await uploadInLibrary(page, 'orange.jpg', await photo('#e8702a'), 'An orange square');
  await expect(page.locator('output.uploaded')).toContainText('Uploaded.');
  const markdown = (await page.locator('output.uploaded code').textContent()) ?? '';
  expect(markdown).toMatch(/^!\[An orange square\]\(\/media\/[0-9a-f]{32}\)$/);
  // Listed in the library, not used yet.
  await expect(page.locator('.media-item').first()).toContainText('Not used on any page.');

  const slug = 'e2e-media-page';
  await seedPage({ slug, title: 'Media page', body: 'Before the image.' });
  await page.goto(`/preview/${slug}?edit`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Body (Markdown)').press('End');
  await page.locator('.image-menu summary').click();
  await page.getByRole('button', { name: 'Insert An orange square' }).click();
  await expect(page.getByLabel('Body (Markdown)')).toHaveValue(
    new RegExp(`Before the image\\.\\n${markdown.replace(/[[\]()]/g, '\\$&')}`),
  );
  // The live preview shows it as visitors will.
  await expect(
    page.getByRole('region', { name: 'Preview as visitors will see it' }).locator('picture img'),
  ).toHaveAttribute('alt', 'An orange square');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('Published');

  await page.context().clearCookies();
  await page.goto(`/${slug}`);
  const image = page.locator('article picture img');
  await expect(image).toHaveAttribute('width', '1200');
  await expect(image).toHaveAttribute('height', '800');
  await expect(page.locator('article picture source[type="image/avif"]')).toHaveAttribute(
    'srcset',
    /480\.avif 480w, .*960\.avif 960w/,
  );
  // It really loads (the browser picked a variant it can show).
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  const chosen = await image.evaluate((img: HTMLImageElement) => img.currentSrc);
  expect(chosen).toMatch(/\.(avif|webp)$/);
});

test('a file that is not an image is refused in the form, the alt text kept', async ({
  page,
  signIn,
}) => {
  await signIn(page);
  await page.goto('/preview?media');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel(/^Image \(JPEG/).setInputFiles({
    name: 'logo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  });
  await page.getByLabel(/^Alt text: what the image shows/).fill('A logo');
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByRole('alert')).toContainText('SVG files are not accepted');
  await expect(page.getByLabel(/^Alt text: what the image shows/)).toHaveValue('A logo');
});

// The hostile pass's repro: a 12 MB photo sent with JavaScript was refused unread by the
// server, and the page fell over ("client-side exception"), the alt text lost.
test('a file over the limit is refused before it is sent, the alt text kept', async ({
  page,
  signIn,
}) => {
  await signIn(page);
  await page.goto('/preview?media');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url());
  });
  await page.getByLabel(/^Image \(JPEG/).setInputFiles({
    name: 'camera.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.alloc(12 * 1024 * 1024, 1),
  });
  await page.getByLabel(/^Alt text: what the image shows/).fill('A big photo');
  await expect(page.getByRole('alert')).toContainText('images may be at most 10 MB');
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByRole('alert')).toContainText('That file is 12.0 MB');
  await expect(page.getByLabel(/^Alt text: what the image shows/)).toHaveValue('A big photo');
  expect(posts).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the upload form works as a plain form', async ({ page, signIn }) => {
    await signIn(page);
    await uploadInLibrary(page, 'teal.jpg', await photo('#1b9e8f'), 'A teal square');
    await expect(page.locator('output.uploaded')).toContainText('Uploaded.');
    await expect(page.locator('.media-item', { hasText: 'teal.jpg' })).toBeVisible();
  });
});
