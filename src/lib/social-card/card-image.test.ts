// The card drawn for a shared page (issue 27): any title makes one, of the one size.
import { expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { fallbackFonts } from './card-fonts';
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

// Issue 27's leftovers: a title in a script the Latin face lacks was a row of boxes. Each
// letter replaced by a private-use character (which no font draws) gives the card of boxes
// the same layout: the real title's card must differ from it, so its glyphs are drawn.
const boxesFor = (title: string) => title.replace(/\p{L}/gu, '\u{E000}');
const card = (title: string) => renderCard({ title, siteTitle: 'Site', accent: '#1f5fbf' });

test('Cyrillic and Greek titles are drawn in the card’s own face, not as boxes', async () => {
  for (const title of ['Привет, мир: заголовок', 'Καλημέρα κόσμε, τίτλος']) {
    expect(await card(title)).not.toEqual(await card(boxesFor(title)));
  }
  // The test itself tells boxes from boxes: two titles of boxes of one shape are one card.
  expect(await card(boxesFor('Привет, мир'))).toEqual(await card(boxesFor('Пример, миф')));
}, 30_000);

// DejaVu Sans (Debian's fonts-dejavu-core, on this project's machines) has Arabic and Hebrew.
test.if(existsSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'))(
  'Arabic and Hebrew titles are drawn in the machine’s fonts, as fallbacks',
  async () => {
    for (const title of ['مرحبا بالعالم', 'שלום עולם'])
      expect(await card(title)).not.toEqual(await card(boxesFor(title)));
  },
  30_000,
);

test('fallback fonts: upright .ttf/.otf only, in file-name order; a missing folder is none', () => {
  expect(fallbackFonts('/no/such/folder')).toEqual([]);
  const fonts = fallbackFonts('/usr/share/fonts');
  const names = fonts.map((font) => font.name);
  // The same folder gives the same fonts in the same order (every instance draws alike).
  expect(fallbackFonts('/usr/share/fonts').map((font) => font.name)).toEqual(names);
  expect(names.filter((name) => /Italic|Oblique/.test(name))).toEqual([]);
  if (existsSync('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf')) {
    expect(fonts.find((font) => font.name === 'fallback DejaVuSans-Bold.ttf')?.weight).toBe(700);
    expect(fonts.find((font) => font.name === 'fallback DejaVuSans.ttf')?.weight).toBe(400);
  }
});
