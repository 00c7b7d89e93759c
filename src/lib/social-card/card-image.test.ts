// The card drawn for a shared page (issue 27): any title makes one, of the one size.
import { expect, test } from 'bun:test';
import { CARD_HEIGHT, CARD_WIDTH, renderCard } from './card-image';

function pngSize(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

test('titles of any length and script make a 1200×630 PNG, the same bytes each time', async () => {
  for (const title of [
    'x'.repeat(300),
    `${'Long words go on and on '.repeat(13)}`,
    '🚀🎉👩‍👩‍👧 only emoji',
    'مرحبا بالعالم — שלום עולם',
    '日本語のタイトルと中文标题',
    '',
  ]) {
    const png = await renderCard({ title, siteTitle: 'S'.repeat(100), accent: '#fafafa' });
    expect([...png.slice(0, 4)]).toEqual([137, 80, 78, 71]);
    expect(pngSize(png)).toEqual({ width: CARD_WIDTH, height: CARD_HEIGHT });
  }
  const card = { title: 'Same', siteTitle: 'Site', accent: '#1f5fbf' };
  expect(await renderCard(card)).toEqual(await renderCard(card));
}, 30_000);
