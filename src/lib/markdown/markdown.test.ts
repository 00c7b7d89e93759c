import { describe, expect, test } from 'bun:test';
import { expectConsoleErrors } from '../../../tests/console-guard';
import { HIGHLIGHT_BLOCK_MAX_CHARS } from './highlight-limits';
import { extractPlainText, LONGEST_AUTO_LINK, renderMarkdown } from './markdown';

/** True when the HTML has a live element or attribute that could run script. */
function hasLiveScript(html: string): boolean {
  return (
    /<script/i.test(html) ||
    /<[a-z][^>]*\son[a-z]+\s*=/i.test(html) ||
    /<[a-z][^>]*(?:href|src)\s*=\s*["']?\s*(?:javascript|vbscript|data):/i.test(html) ||
    /<(?:iframe|object|embed|svg|math|style|img|form)[\s>]/i.test(
      html.replace(/<img src="https?:[^"]*"[^>]*>/g, ''),
    )
  );
}

describe('renderMarkdown', () => {
  test('renders headings with ids, lists, tables, code and links', async () => {
    const html = await renderMarkdown(
      '## Hello World\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```\n\n[in](/about) [out](https://example.com)',
    );
    expect(html).toContain('<h2 id="hello-world">Hello World</h2>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<table>');
    expect(html).toContain(
      '<pre class="shiki shiki-themes github-light-default github-dark-default"',
    );
    expect(html).toContain('<a href="/about">in</a>');
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer">out</a>');
  });

  const vectors = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">x</a>',
    '[x](javascript:alert(1))',
    '[x](JAVASCRIPT:alert(1))',
    '[x](jav&#x09;ascript:alert(1))',
    '[x](java\tscript:alert(1))',
    '[x]( javascript:alert(1))',
    '[x](&#106;avascript:alert(1))',
    '[x](vbscript:msgbox(1))',
    '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '![x](javascript:alert(1))',
    '![x](data:image/svg+xml,<svg onload=alert(1)>)',
    '<svg onload=alert(1)>',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<style>body{background:url(javascript:alert(1))}</style>',
    '[x](file:///etc/passwd)',
    '<a href="#" onclick="alert(1)">x</a>',
    '[x][ref]\n\n[ref]: javascript:alert(1)',
    '<details open ontoggle=alert(1)>',
    '<<script>script>alert(1)<</script>/script>',
    '`<script>`',
    '[<script>](https://example.com)',
    '<body onload=alert(1)>',
    '<input autofocus onfocus=alert(1)>',
    '<video><source onerror=alert(1)>',
    '<audio src=x onerror=alert(1)>',
    '<marquee onstart=alert(1)>',
    '<object data="javascript:alert(1)">',
    '<embed src="javascript:alert(1)">',
    '<form action="javascript:alert(1)"><button>x</button></form>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>',
    '[x](&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;:alert(1))',
    '[x](javascript&colon;alert(1))',
    '[x](javas%63ript:alert(1))',
    '[x](\\javascript:alert(1))',
    '[x](<javascript:alert(1)>)',
    '<javascript:alert(1)>',
    '[x](data:text/html,<script>alert(1)</script>)',
    '![x](https://example.com/a.png" onerror="alert(1))',
    '[x](https://example.com "title" onmouseover="alert(1)")',
    '<img src="x" onerror="alert(1)"/>',
    '<iframe srcdoc="<script>alert(1)</script>">',
    '<base href="javascript:alert(1)//">',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<link rel="stylesheet" href="javascript:alert(1)">',
    '<svg><script>alert(1)</script></svg>',
    '<div style="background:url(javascript:alert(1))">x</div>',
    '```html\n<script>alert(1)</script>\n```',
    '<!--<script>alert(1)//-->',
    '<scr<script>ipt>alert(1)</script>',
    '[x](JaVaScRiPt:alert(1))',
  ];

  for (const vector of vectors) {
    test(`leaves ${JSON.stringify(vector)} inert`, async () => {
      expect(hasLiveScript(await renderMarkdown(vector))).toBe(false);
    });
  }
});

describe('highlighting', () => {
  test('a known language is coloured for light and dark, its text escaped', async () => {
    const html = await renderMarkdown('```ts\nconst tag = "<b>"; // a & b\n```');
    expect(html).toStartWith(
      '<pre class="shiki shiki-themes github-light-default github-dark-default"',
    );
    // Each token names its colour in both themes; site.css picks one by the reader's setting.
    expect(html).toMatch(
      /<span style="--shiki-light:#[0-9A-F]{6};--shiki-dark:#[0-9A-F]{6}">const<\/span>/i,
    );
    expect(html).toContain('&#x3C;b>');
    expect(html).not.toContain('<b>');
    // markdown-it's trailing newline is no extra empty line.
    expect(html).not.toContain('<span class="line"></span></code>');
    expect(html.replace(/<[^>]+>/g, '')).toContain('const tag = "&#x3C;b>"; // a &#x26; b');
  });

  test('no language, an unknown one, or a block too long to colour: plain and escaped', async () => {
    for (const info of ['', 'klingon', '<b>']) {
      const html = await renderMarkdown(`\`\`\`${info}\n<script>x</script>\n\`\`\``);
      expect(html).not.toContain('shiki');
      expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    }
    const long = `\`\`\`ts\n${'let a = 1;\n'.repeat(HIGHLIGHT_BLOCK_MAX_CHARS / 10)}\`\`\``;
    expect(await renderMarkdown(long)).not.toContain('shiki');
  });
});

describe('highlighting cost (hostile pass, issue 14)', () => {
  // The repro: ten TypeScript blocks of `a<a<…` lines, each under the per-block limit, held
  // the server 50 s and grew to 13 MB of HTML. Each render now has a budget.
  test("200 KB of pathological code renders within the render's wait, mostly plain", async () => {
    await renderMarkdown('```ts\nlet warm = 1;\n```');
    const block = `\`\`\`ts\n${Array(8).fill('a<'.repeat(490)).join('\n')}\n\`\`\`\n\n`;
    const body = block.repeat(25);
    // On a busy machine the worker may not answer within the render's 3 s wait: then the
    // render shows every block plain and says so in one warning. Both are the bounded render
    // this is about; which one happened depends on the machine, not on the code.
    const printed = expectConsoleErrors();
    const html = await renderMarkdown(body);
    const gaveUp = printed.lines().some((line) => line.includes('syntax highlighting stopped'));
    expect(printed.lines().filter((line) => !line.includes('syntax highlighting stopped'))).toEqual(
      [],
    );
    // 13 MB from 200 KB before the budget (67 times); now the budget bounds it.
    expect(html.length).toBeLessThan(body.length * 5);
    // Two blocks fit the budget of 20 000 characters; the rest are plain.
    expect(html.split('<pre class="shiki').length - 1).toBe(gaveUp ? 0 : 2);
  });

  test('a page of ordinary code is highlighted in full, within the budget', async () => {
    const block = `\`\`\`ts\n${'export const greet = (name: string) => name.toUpperCase();\n'.repeat(40)}\`\`\`\n\n`;
    const html = await renderMarkdown(block.repeat(5));
    expect(html.split('<pre class="shiki').length - 1).toBe(5);
  });
});

describe('extractPlainText', () => {
  test('strips Markdown and truncates', () => {
    expect(extractPlainText('# Title\n\nSome [link](/x) text.', 200)).toBe('Title Some link text.');
    expect(extractPlainText('a'.repeat(300), 10)).toHaveLength(10);
  });
});

describe('auto-links', () => {
  test('URLs and emails in text become links; a run of text too long for a URL does not', async () => {
    expect(await renderMarkdown('see https://example.com/a?b=1 or me@example.com.')).toBe(
      '<p>see <a href="https://example.com/a?b=1" rel="noopener noreferrer">https://example.com/a?b=1</a> or <a href="mailto:me@example.com">me@example.com</a>.</p>\n',
    );
    const tooLong = `https://example.com/${'a'.repeat(LONGEST_AUTO_LINK)}`;
    expect(await renderMarkdown(tooLong)).toBe(`<p>${tooLong}</p>\n`);
    const longestLinked = `https://example.com/${'a'.repeat(LONGEST_AUTO_LINK - 'https://example.com/'.length)}`;
    expect(await renderMarkdown(longestLinked)).toContain(`<a href="${longestLinked}"`);
  });

  // The hostile pass's repro: ~198 KB of run-together URLs took 2.7 s to render (linkify-it's
  // cost grows with the text after each "://"). The bound is loose on purpose: it catches that
  // regression, not small changes in speed.
  test('a body of 198 KB of run-together URLs renders promptly, as text with at most one link', async () => {
    await renderMarkdown('warm up the highlighter');
    const body = 'http://a.b/'.repeat(18_000);
    // CPU time, not wall time: linkify runs on this thread (plain text leaves the highlighter
    // idle), and what other processes on a busy machine take is not counted against it.
    const started = process.cpuUsage();
    const html = await renderMarkdown(body);
    const spent = process.cpuUsage(started);
    expect((spent.user + spent.system) / 1000).toBeLessThan(3_000);
    // Only the last 2 KB, which could be one URL, may be linked.
    expect(html.startsWith(`<p>${body.slice(0, 100_000)}`)).toBe(true);
    expect(html.split('<a ').length).toBeLessThanOrEqual(2);
  });
});
