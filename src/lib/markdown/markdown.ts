// Owns Markdown → HTML: safe by construction (raw HTML escaped, only safe link schemes).
import 'server-only';
import MarkdownIt, { type MarkdownIt as MarkdownRenderer } from 'markdown-it';
import { type MediaItem, mediaHashOf, pictureHtml } from '../media/media-refs';
import { traced } from '../observability/spans';
import { highlightBlocks } from './highlight';

const SAFE_URL = /^(?:https?:|mailto:|[/#?.]|[^:/?#]*(?:[/?#]|$))/i;

function isSafeUrl(url: string): boolean {
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:"), so
  // they are stripped before the scheme is judged.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is exactly what is matched
  const normalised = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  return SAFE_URL.test(normalised);
}

function slugifyHeading(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^\p{Letter}\p{Number}\s-]/gu, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 80) || 'section'
  );
}

/** Text runs longer than this (no spaces) are never auto-linked; see boundLinkify. */
export const LONGEST_AUTO_LINK = 2048;

/**
 * linkify-it matches a URL with regular expressions that cost time in proportion to the text
 * after the match's start, and markdown-it asks it at every "://" and of every text run: a
 * 200 KB body of run-together URLs took 2.7 s to render. No real URL is longer than about
 * 2 KB (browsers and servers refuse longer ones), so a run of non-space text longer than that
 * is left as text, and each question costs at most that much.
 */
function boundLinkify(md: MarkdownRenderer): void {
  const linkify = md.linkify;
  const matchAtStart = linkify.matchAtStart.bind(linkify);
  const test = linkify.test.bind(linkify);
  const hugeRunAtStart = new RegExp(`^\\S{${LONGEST_AUTO_LINK + 1}}`);
  const hugeRun = new RegExp(`\\S{${LONGEST_AUTO_LINK + 1}}`);
  linkify.matchAtStart = (text: string) => (hugeRunAtStart.test(text) ? null : matchAtStart(text));
  linkify.test = (text: string) => !hugeRun.test(text) && test(text);
}

function createRenderer() {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
  md.validateLink = (url) => isSafeUrl(url);
  boundLinkify(md);

  const defaultLinkOpen =
    md.renderer.rules.link_open ??
    ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const href = String(token?.attrGet('href') ?? '');
    if (token && /^https?:\/\//i.test(href)) token.attrSet('rel', 'noopener noreferrer');
    return defaultLinkOpen(tokens, idx, options, env, self);
  };

  md.core.ruler.push('heading_ids', (state) => {
    const seen = new Map<string, number>();
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open') return;
      const inline = state.tokens[i + 1];
      const base = slugifyHeading(inline?.content ?? '');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      token.attrSet('id', count === 0 ? base : `${base}-${count}`);
    });
    return true;
  });

  // Fenced code coloured beforehand (renderMarkdown): a complete <pre> from Shiki, which
  // escapes the code; anything not coloured is markdown-it's plain, escaped block.
  const defaultFence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, renderEnv, self) => {
    const coloured = (renderEnv as RenderEnv | undefined)?.highlighted?.get(idx);
    if (coloured) return coloured;
    return defaultFence
      ? defaultFence(tokens, idx, options, renderEnv, self)
      : self.renderToken(tokens, idx, options);
  };

  const defaultImage = md.renderer.rules.image;
  md.renderer.rules.image = (tokens, idx, options, renderEnv, self) => {
    const env = (renderEnv ?? {}) as RenderEnv;
    const token = tokens[idx];
    const hash = mediaHashOf(String(token?.attrGet('src') ?? ''));
    const item = hash ? env.media?.get(hash) : undefined;
    if (token && item) {
      // An uploaded image: its <picture> with every variant and its size.
      const html = pictureHtml(item, self.renderInlineAsText(token.children ?? [], options, env), {
        first: !env.sawImage,
      });
      env.sawImage = true;
      return html;
    }
    env.sawImage = true;
    // Images load lazily and decode off the main thread: they never hold up the first paint.
    tokens[idx]?.attrSet('loading', 'lazy');
    tokens[idx]?.attrSet('decoding', 'async');
    return defaultImage
      ? defaultImage(tokens, idx, options, env, self)
      : self.renderToken(tokens, idx, options);
  };
  return md;
}

/** What one render knows beyond the Markdown: the uploaded images it names. */
type RenderEnv = {
  media?: ReadonlyMap<string, MediaItem>;
  sawImage?: boolean;
  /** Highlighted HTML of fenced blocks, by token index. */
  highlighted?: ReadonlyMap<number, string>;
};

const renderer = createRenderer();

/** The page's HTML, its fenced code highlighted (in the highlighter's own thread). */
export async function renderMarkdown(
  source: string,
  { media }: { media?: ReadonlyMap<string, MediaItem> } = {},
): Promise<string> {
  const env: RenderEnv = { media };
  const tokens = renderer.parse(source, env);
  const fences = tokens.flatMap((token, index) =>
    token.type === 'fence' ? [{ token, index }] : [],
  );
  const html = await highlightBlocks(
    fences.map(({ token }) => ({
      code: token.content,
      language: token.info.trim().split(/\s+/)[0] ?? '',
    })),
  );
  env.highlighted = new Map(
    fences.flatMap(({ index }, i) => (html[i] ? [[index, html[i] as string] as const] : [])),
  );
  return traced('function', 'markdown.render', () =>
    renderer.renderer.render(tokens, renderer.options, env),
  );
}

/** Plain text of the first paragraph(s), for meta descriptions when a page has no summary. */
export function extractPlainText(source: string, maxLength = 160): string {
  const text = source
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`|~-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= maxLength ? text : `${text.slice(0, maxLength - 1).trimEnd()}…`;
}
