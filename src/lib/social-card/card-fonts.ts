// Owns the fonts a social card is drawn with (docs/decisions/0034, amended by issue 27's
// leftovers): Source Serif 4, the site's reading face, then the machine's own fonts as
// fallbacks. Satori picks, for each character, the first font (by family, in the order given)
// that has a glyph for it, so a Cyrillic title draws in Source Serif's Cyrillic and an Arabic
// or Hebrew one in, say, DejaVu Sans. Satori keeps one font per family name and weight, so each
// Source Serif subset gets a family of its own (under one name they hid each other: only the
// Latin subset was used, and a Cyrillic title was a row of boxes). A character no font has
// is drawn as the last font's missing-glyph box; the card is still made.
import 'server-only';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getEnv } from '../runtime/env';

type Weight = 400 | 700;
export type CardFont = { name: string; data: Buffer; weight: Weight; style: 'normal' };

/** The family the card asks for: Source Serif's Latin subset. */
export const CARD_FAMILY = 'Source Serif';

// Every subset @fontsource ships as WOFF (satori reads TTF, OTF and WOFF, not WOFF2).
const SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'vietnamese'];

/** Fallbacks read at most: a font directory of a desktop can hold gigabytes. */
const FALLBACK_FILES_MAX = 64;
const FALLBACK_BYTES_MAX = 96 * 1024 * 1024;

function sourceSerif(): CardFont[] {
  const require = createRequire(import.meta.url);
  return ([400, 700] as const).flatMap((weight) =>
    SUBSETS.map((subset, index) => ({
      name: index === 0 ? CARD_FAMILY : `${CARD_FAMILY} ${subset}`,
      data: readFileSync(
        require.resolve(
          `@fontsource/source-serif-4/files/source-serif-4-${subset}-${weight}-normal.woff`,
        ),
      ),
      weight,
      style: 'normal' as const,
    })),
  );
}

/** A TrueType/OpenType file's OS/2 weight class and whether it is italic, or null. */
function styleOf(data: Buffer): { weight: number; italic: boolean } | null {
  if (data.length < 12) return null;
  const tables = data.readUInt16BE(4);
  for (let at = 12; at + 16 <= data.length && at < 12 + tables * 16; at += 16) {
    if (data.toString('latin1', at, at + 4) !== 'OS/2') continue;
    const offset = data.readUInt32BE(at + 8);
    if (offset + 64 > data.length) return null;
    return {
      weight: data.readUInt16BE(offset + 4),
      italic: (data.readUInt16BE(offset + 62) & 1) === 1,
    };
  }
  return null;
}

function fontFiles(directory: string, found: string[] = []): string[] {
  let entries: string[];
  try {
    entries = readdirSync(directory).sort();
  } catch {
    return found;
  }
  for (const entry of entries) {
    const file = path.join(directory, entry);
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(file);
    } catch {
      continue;
    }
    if (stat.isDirectory()) fontFiles(file, found);
    else if (/\.(ttf|otf)$/i.test(entry)) found.push(file);
  }
  return found;
}

/**
 * The machine's upright fonts under `directory`, in file-name order (the same fonts give the
 * same order on every instance), each its own family: .ttf and .otf only (satori reads no
 * collections), italics and obliques left out, within the limits above.
 */
export function fallbackFonts(directory: string): CardFont[] {
  const fonts: CardFont[] = [];
  let bytes = 0;
  for (const file of fontFiles(directory)) {
    if (fonts.length >= FALLBACK_FILES_MAX) break;
    let data: Buffer;
    try {
      data = readFileSync(file);
    } catch {
      continue;
    }
    const style = styleOf(data);
    if (!style || style.italic || bytes + data.length > FALLBACK_BYTES_MAX) continue;
    bytes += data.length;
    fonts.push({
      name: `fallback ${path.basename(file)}`,
      data,
      weight: style.weight >= 600 ? 700 : 400,
      style: 'normal',
    });
  }
  return fonts;
}

let loaded: CardFont[] | null = null;

/** Source Serif's subsets, then the fallbacks of CARD_FONTS_DIR: read once, at first use. */
export function cardFonts(): CardFont[] {
  if (loaded) return loaded;
  const directory = getEnv().CARD_FONTS_DIR;
  loaded = [...sourceSerif(), ...(directory === 'none' ? [] : fallbackFonts(directory))];
  return loaded;
}
