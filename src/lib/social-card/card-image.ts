// Owns drawing a page's social card: a 1200×630 PNG with the page's title, the site's title and
// the accent colour, laid out by satori (text to SVG paths) and rasterised by resvg
// (docs/decisions/0034). Pure: the same words and colour give the same bytes on any instance
// with the same fonts (card-fonts.ts: its own, then the machine's as fallbacks).
import 'server-only';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import { CARD_FAMILY, cardFonts } from './card-fonts';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** Longest title drawn: past it the title ends in "…" (a 300-character title still fits). */
const TITLE_MAX = 120;
const SITE_MAX = 60;

function shortened(text: string, max: number): string {
  const characters = [...text.replace(/\s+/g, ' ').trim()];
  return characters.length > max
    ? `${characters
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : text;
}

/** Black or white, whichever reads better on the colour (WCAG relative luminance). */
function inkOn(hex: string): string {
  const channel = (at: number) => {
    const value = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.18 ? '#1d1d1f' : '#ffffff';
}

type Node = { type: string; props: Record<string, unknown> & { children?: unknown } };
const box = (style: Record<string, unknown>, children?: unknown): Node => ({
  type: 'div',
  props: { style, children },
});

export type CardText = {
  title: string;
  siteTitle: string;
  /** `#rrggbb`. */
  accent: string;
};

/** The card as a PNG. */
export async function renderCard({
  title,
  siteTitle,
  accent,
}: CardText): Promise<Uint8Array<ArrayBuffer>> {
  const heading = shortened(title, TITLE_MAX);
  // Long titles are set smaller so they stay inside the card.
  const size = heading.length > 90 ? 48 : heading.length > 50 ? 62 : 80;
  const ink = inkOn(accent);
  // Satori's boxes grow by their padding, so the card's margins are an inner box's.
  const tree = box(
    {
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
      display: 'flex',
      background: accent,
      color: ink,
      fontFamily: CARD_FAMILY,
    },
    box(
      {
        width: CARD_WIDTH - 160,
        height: CARD_HEIGHT - 144,
        margin: '72px 80px',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
      },
      [
        box(
          {
            display: 'flex',
            width: '100%',
            fontSize: size,
            fontWeight: 700,
            lineHeight: 1.15,
            overflow: 'hidden',
            maxHeight: 380,
            overflowWrap: 'anywhere',
          },
          heading,
        ),
        box(
          {
            display: 'flex',
            width: '100%',
            fontSize: 36,
            fontWeight: 400,
            borderTop: `3px solid ${ink}`,
            paddingTop: 24,
          },
          shortened(siteTitle, SITE_MAX),
        ),
      ],
    ),
  );
  const svg = await satori(tree as Parameters<typeof satori>[0], {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts: cardFonts(),
  });
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: CARD_WIDTH } }).render().asPng();
  return new Uint8Array(png);
}
