// The 5 000-line page of bench/large-page.ts: realistic Markdown (headings, paragraphs, lists,
// emphasis, inline code, links, a quarter of the sections with a fenced code block in one of the
// highlighted languages), the same every run.
import { seededRandom } from '../tests/support';

/** Where the bench types: a word in the paragraph at the middle of the body. */
export const MARK = 'Midpointmark';

const WORDS =
  'the a page site editor folio markdown river stone harbour light winter garden letter index cache query table render publish draft summary people city north south paper glass window with from into over under'.split(
    ' ',
  );
const CODE: Record<string, string[]> = {
  ts: [
    'export async function load(slug: string): Promise<Page | null> {',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source, as a page shows it
    '  const rows = await db.query<Page>`SELECT * FROM pages WHERE slug = ${slug}`;',
    '  if (rows.length === 0) return null;',
    '  return { ...rows[0], loadedAt: new Date() };',
    '}',
  ],
  python: [
    'def summarise(pages: list[dict]) -> dict[str, int]:',
    '    counts: dict[str, int] = {}',
    '    for page in pages:',
    "        counts[page['state']] = counts.get(page['state'], 0) + 1",
    '    return counts',
  ],
  bash: [
    'set -euo pipefail',
    'for f in pages/*.md; do',
    '  echo "importing $f"',
    '  bun run folio page put "$(basename "$f" .md)" --title "$f" --body-file "$f"',
    'done',
  ],
  sql: [
    'SELECT p.slug, r.title, r.published_at',
    'FROM pages p JOIN revisions r ON r.id = p.published_revision_id',
    "WHERE r.published_at > now() - interval '7 days'",
    'ORDER BY r.published_at DESC',
    'LIMIT 20;',
  ],
};

/** `lines` lines of Markdown, the same every run. */
export function largeBody(lines: number): string {
  const random = seededRandom(25);
  const word = () => WORDS[Math.floor(random() * WORDS.length)] as string;
  const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
  const out: string[] = [];
  let section = 0;
  let markPlaced = false;
  while (out.length < lines) {
    section += 1;
    out.push(`## Section ${section}: ${sentence(3)}`, '');
    for (let i = 0; i < 4; i += 1) out.push(`${sentence(7)},`);
    out.push(`${sentence(5)}.`, '');
    if (!markPlaced && out.length >= lines / 2) {
      out.push(`The editor types here: ${MARK} ${sentence(10)}.`, '');
      markPlaced = true;
    }
    for (let i = 0; i < 4; i += 1) out.push(`- ${sentence(3)} **${word()}** \`${word()}\``);
    out.push('', `${sentence(4)} [a link](/about) ${sentence(3)}.`, `${sentence(6)}.`, '');
    if (section % 4 === 0) {
      const language = Object.keys(CODE)[(section / 4) % 4] as string;
      out.push(`\`\`\`${language}`, ...(CODE[language] ?? []), '```', '');
    }
  }
  return out.slice(0, lines).join('\n');
}
