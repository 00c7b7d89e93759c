import { beforeAll, describe, expect, test } from 'bun:test';
import { largeBody } from '../../../bench/large-page-body';
import { seededRandom } from '../../../tests/support';
import type { MediaItem } from '../media/media-refs';
import { ByteLru } from './byte-lru';
import { markdownBlockCache, renderMarkdown, renderWholeMarkdown } from './markdown';

/** Pieces of Markdown whose meaning can depend on their neighbours. */
const PIECES = [
  '# Title',
  '## Same heading',
  '## Same heading',
  'Setext heading\n==============',
  'A paragraph with *emphasis*, **strong**, `code`, ~~strike~~ and a https://example.com/link.',
  'A paragraph\nwith a soft break\nand a hard one  \nhere.',
  'Lazy\ncontinuation of a paragraph\n---',
  '- tight\n- list\n- items',
  '- loose\n\n- list\n\n  with a second paragraph',
  '3. ordered\n4. from three',
  '> a quote\n> - with a list\n>\n> ## and a heading',
  '> lazy quote\ncontinued',
  '```ts\nconst a: number = 1;\n```',
  '```python\ndef f():\n    return 1\n```',
  '```cobol\nDISPLAY "plain".\n```',
  '```\nno language\n```',
  '~~~sql\nSELECT 1;\n~~~',
  '    indented code\n    block',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '***',
  'Reference [link][ref] and [ref] and ![image][pic].',
  '[ref]: https://example.com/ref "Title"',
  '[pic]: /media/0123456789abcdef0123456789abcdef',
  '![An upload](/media/0123456789abcdef0123456789abcdef) and ![another](https://example.com/x.png)',
  '![Second upload](/media/fedcba9876543210fedcba9876543210)',
  '<script>alert(1)</script> and <b>raw</b>',
  '[x](javascript:alert(1)) [y](/about)',
  'Text with a NUL \u0000 and a \u0001 in it',
  '* [ ] not a task list\n* second',
  '1) paren list\n2) second',
  'Para\n- list interrupting it',
  'Para\n2. not a list interruption',
  '```ts\nunclosed fence at the end',
];

const MEDIA: ReadonlyMap<string, MediaItem> = new Map([
  [
    '0123456789abcdef0123456789abcdef',
    {
      hash: '0123456789abcdef0123456789abcdef',
      name: 'photo.jpg',
      format: 'jpeg',
      width: 800,
      height: 600,
      alt: 'A photo',
      variants: [],
    } as unknown as MediaItem,
  ],
]);

/** A document of `count` random pieces joined by one or two newlines (or none). */
function randomDocument(random: () => number, count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    parts.push(PIECES[Math.floor(random() * PIECES.length)] as string);
    parts.push(['\n\n', '\n', '\n\n\n', '\r\n\r\n'][Math.floor(random() * 4)] as string);
  }
  return parts.join('');
}

/**
 * The whole render to compare with. Shiki's colouring of the same code can differ between two
 * requests on a busy machine (its per-line time limit), so the first render puts each block's
 * colours in the highlighter's cache and the second, compared, takes them all from there.
 */
async function wholeOf(doc: string, options: { media?: ReadonlyMap<string, MediaItem> } = {}) {
  await renderWholeMarkdown(doc, options);
  return renderWholeMarkdown(doc, options);
}

describe('renderMarkdown by blocks', () => {
  // Shiki cuts a line's colouring short after 50 ms, which a cold grammar can take on a busy
  // machine: the highlighter is warmed first, so both renders colour the same way.
  beforeAll(async () => {
    await renderWholeMarkdown(largeBody(400));
  }, 30_000);

  test('gives exactly the HTML of a whole render, on varied Markdown', async () => {
    const random = seededRandom(2025);
    for (let run = 0; run < 120; run += 1) {
      const doc = randomDocument(random, 1 + Math.floor(random() * 14));
      const media = run % 2 === 0 ? MEDIA : undefined;
      const whole = await wholeOf(doc, { media });
      expect({ doc, html: await renderMarkdown(doc, { media }) }).toEqual({ doc, html: whole });
      // Again, now from the cache.
      expect({ doc, html: await renderMarkdown(doc, { media }) }).toEqual({ doc, html: whole });
    }
  }, 30_000);

  test('every piece alone, and each edited in place, matches the whole render', async () => {
    const doc = PIECES.join('\n\n');
    expect(await renderMarkdown(doc, { media: MEDIA })).toBe(await wholeOf(doc, { media: MEDIA }));
    for (const piece of PIECES) {
      const edited = doc.replace(piece, `${piece} edited`);
      expect(await renderMarkdown(edited, { media: MEDIA })).toBe(
        await wholeOf(edited, { media: MEDIA }),
      );
    }
    // A reference definition changed: every block that uses it follows.
    const moved = doc.replace('https://example.com/ref', 'https://example.com/moved');
    const html = await renderMarkdown(moved);
    expect(html).toContain('href="https://example.com/moved"');
    expect(html).toBe(await wholeOf(moved));
  }, 30_000);

  test('heading ids are numbered across blocks, and follow an edit above them', async () => {
    const doc = '## Notes\n\ntext\n\n## Notes\n\n## Other';
    const html = await renderMarkdown(doc);
    expect(html).toContain('<h2 id="notes">Notes</h2>');
    expect(html).toContain('<h2 id="notes-1">Notes</h2>');
    const renamed = await renderMarkdown(doc.replace('## Notes', '## Other'));
    expect(renamed).toContain('<h2 id="other">Other</h2>');
    expect(renamed).toContain('<h2 id="notes">Notes</h2>');
    expect(renamed).toContain('<h2 id="other-1">Other</h2>');
  });

  test('the code budget is the page’s: code added above takes colour from code below', async () => {
    // Long comment lines: a token each, so the budget is spent without costing the worker much.
    const code = (name: string, lines: number) =>
      `\`\`\`ts\n${`// ${name} ${'x'.repeat(950)}\n`.repeat(lines)}\`\`\``;
    const doc = ['v1', 'v2', 'v3'].map((name) => code(name, 6)).join('\n\nText.\n\n');
    const before = await renderMarkdown(doc);
    expect(before.match(/<pre class="shiki/g)?.length).toBe(3);
    // Three blocks of 6 720 characters above: two coloured (13 440), the third past the
    // budget (20 000), which then has room for v1 (5 742) and not for v2.
    const above = `${code('above', 7)}\n\n`.repeat(3);
    const after = await renderMarkdown(above + doc);
    expect(after).toBe(await wholeOf(above + doc));
    expect(after).toContain('<pre><code class="language-ts">// v2 ');
    expect(after).toContain('<pre><code class="language-ts">// v3 ');
    expect(after).not.toContain('<pre><code class="language-ts">// v1 ');
    expect(after.match(/<pre class="shiki/g)?.length).toBe(3);
  }, 20_000);

  test('a 5 000-line page: identical, and an edit renders again only what it changed', async () => {
    const body = largeBody(5000);
    const whole = await wholeOf(body);
    markdownBlockCache.clear();
    expect(await renderMarkdown(body)).toBe(whole);
    const { blocks } = markdownBlockCache.stats();
    expect(blocks).toBeGreaterThan(1000);
    const edited = body.replace('Midpointmark', 'Midpointmarkx');
    const started = performance.now();
    const html = await renderMarkdown(edited);
    const ms = performance.now() - started;
    expect(html).toBe(await wholeOf(edited));
    // One block more in the cache: the edited paragraph.
    expect(markdownBlockCache.stats().blocks).toBe(blocks + 1);
    expect(ms).toBeLessThan(1_000);
  }, 30_000);
});

describe('ByteLru', () => {
  test('stays within its bytes, dropping the least recently used first', () => {
    const lru = new ByteLru<string>(100, (value) => 2 * value.length);
    lru.set('a', 'x'.repeat(20)); // 2 + 40
    lru.set('b', 'y'.repeat(20)); // 2 + 40
    expect(lru.get('a')).toBe('x'.repeat(20));
    lru.set('c', 'z'.repeat(20)); // over 100: drops b, the least recently used
    expect(lru.bytes).toBeLessThanOrEqual(100);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBeDefined();
    expect(lru.get('c')).toBeDefined();
    lru.set('huge', 'h'.repeat(100)); // larger than the budget: not kept, nothing dropped
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.size).toBe(2);
    lru.set('a', 'short');
    expect(lru.bytes).toBe(2 + 10 + 2 + 40);
  });

  test('the block cache never holds more than its budget', async () => {
    markdownBlockCache.clear();
    const random = seededRandom(7);
    for (let i = 0; i < 40; i += 1) await renderMarkdown(randomDocument(random, 30));
    const { bytes, blocks } = markdownBlockCache.stats();
    expect(blocks).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(16 * 1024 * 1024);
  }, 30_000);
});
