// Owns Markdown → HTML: safe by construction (raw HTML escaped, only safe link schemes), and
// rendered a top-level block at a time with each block's HTML kept (issue 25): a keystroke in
// a 5 000-line page re-renders the block it changed, not the page.
import 'server-only';
import { createHash } from 'node:crypto';
import MarkdownIt, { type MarkdownIt as MarkdownRenderer, type Token } from 'markdown-it';
import { type MediaItem, mediaHashesIn, mediaHashOf, pictureHtml } from '../media/media-refs';
import { traced } from '../observability/spans';
import { processSingleton } from '../runtime/process-singleton';
import { ByteLru } from './byte-lru';
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
    const slots = (state.env as RenderEnv | undefined)?.slots;
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open') return;
      const inline = state.tokens[i + 1];
      const base = slugifyHeading(inline?.content ?? '');
      // A block alone cannot know the headings before it: its ids are numbered as the
      // blocks are put together (assemble).
      if (slots) {
        token.attrSet('id', `${SLOT}${base}${SLOT}`);
        return;
      }
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
    const env = renderEnv as RenderEnv | undefined;
    const coloured = env?.highlighted?.get(idx);
    if (coloured) return coloured;
    const plain = defaultFence
      ? defaultFence(tokens, idx, options, renderEnv, self)
      : self.renderToken(tokens, idx, options);
    const token = tokens[idx];
    if (!env?.slots || !token) return plain;
    // Whether it is coloured depends on the code before it (the page's budget): decided as
    // the blocks are put together.
    env.slots.push({ code: token.content, language: languageOf(token), plain });
    return `${SLOT}${SLOT}`;
  };

  const defaultImage = md.renderer.rules.image;
  md.renderer.rules.image = (tokens, idx, options, renderEnv, self) => {
    const env = (renderEnv ?? {}) as RenderEnv;
    const token = tokens[idx];
    const hash = mediaHashOf(String(token?.attrGet('src') ?? ''));
    const item = hash ? env.media?.get(hash) : undefined;
    env.renderedImage = true;
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
  /** An image came before (the first one is not lazy). */
  sawImage?: boolean;
  /** This render (of a block) showed an image. */
  renderedImage?: boolean;
  /** Highlighted HTML of fenced blocks, by token index. */
  highlighted?: ReadonlyMap<number, string>;
  /** Rendering one block: its fences, in order, left as slots (see BlockHtml). */
  slots?: FenceSlot[];
  /** Reference definitions of the whole page (markdown-it's block parse fills it). */
  // biome-ignore lint/suspicious/noExplicitAny: markdown-it's own type for it
  references?: any;
};

/**
 * Marks a slot in a block's HTML: a heading's id (`SLOT base SLOT`) or a fence (`SLOT SLOT`).
 * markdown-it turns every NUL of the source into U+FFFD, so no text can make one.
 */
const SLOT = '\u0000';
// biome-ignore lint/suspicious/noControlCharactersInRegex: the slot marker is exactly that
const SLOTS = /\u0000([^\u0000]*)\u0000/g;

type FenceSlot = { code: string; language: string; plain: string };
/** A top-level block's HTML, with its heading ids and fences as slots. */
type BlockHtml = {
  html: string;
  fences: FenceSlot[];
  /** Whether the block shows an image (those after it are lazy). */
  sawImage: boolean;
};

function languageOf(token: Token): string {
  return token.info.trim().split(/\s+/)[0] ?? '';
}

const renderer = createRenderer();
/** Block structure only: cheap (7–30 ms for 5 000 lines), and what splits a page into blocks. */
const blockParser = createRenderer();
blockParser.core.ruler.enableOnly(['normalize', 'block']);
/** Everything after the block structure (inline, links, heading ids), one block at a time. */
const inlineParser = createRenderer();
inlineParser.core.ruler.disable(['normalize', 'block']);

/**
 * Rendered blocks kept, by everything their HTML depends on: their source, the page's
 * reference definitions (by a SHA-256 of them), the images they show, whether an image came
 * before. A 5 000-line page's blocks weigh 0.8 MB here, so 16 MiB holds about twenty such
 * pages; coloured code is kept apart (highlight.ts).
 */
export const BLOCK_CACHE_BYTES = 16 * 1024 * 1024;

function blockCache(): ByteLru<BlockHtml> {
  return processSingleton(
    'markdown-blocks',
    () =>
      new ByteLru<BlockHtml>(
        BLOCK_CACHE_BYTES,
        (block) =>
          2 * block.html.length +
          block.fences.reduce(
            (sum, fence) =>
              sum + 2 * (fence.code.length + fence.plain.length + fence.language.length),
            64,
          ),
      ),
  );
}

/** For tests: the block cache's current weight and count, and a way to empty it. */
export const markdownBlockCache = {
  stats: () => ({ bytes: blockCache().bytes, blocks: blockCache().size }),
  clear: () => blockCache().clear(),
};

/**
 * The page's HTML, its fenced code highlighted (in the highlighter's own thread). Each
 * top-level block (a paragraph, a list, a table, a fence…) is rendered on its own and kept,
 * so only the blocks an edit touched are rendered again; the result is exactly what a render
 * of the whole page gives (renderWholeMarkdown; the tests compare them).
 */
export async function renderMarkdown(
  source: string,
  options: { media?: ReadonlyMap<string, MediaItem> } = {},
): Promise<string> {
  return (await renderMarkdownBlocks(source, options)).join('');
}

/**
 * The page's HTML as its top-level blocks' HTML, in order (joined, renderMarkdown's result):
 * each is whole elements, so the live preview can replace only the blocks that changed.
 */
export async function renderMarkdownBlocks(
  source: string,
  { media }: { media?: ReadonlyMap<string, MediaItem> } = {},
): Promise<string[]> {
  const env: RenderEnv = {};
  const state = new blockParser.core.State(source, blockParser, env);
  blockParser.core.process(state);
  const lines = state.src.split('\n');
  // Everything a block's HTML depends on beyond its own lines.
  const references = JSON.stringify(env.references ?? {});
  const definitions = createHash('sha256').update(references).digest('base64');
  const blocks: BlockHtml[] = [];
  let sawImage = false;
  const cache = blockCache();
  traced('function', 'markdown.render', () => {
    for (let start = 0; start < state.tokens.length; ) {
      const first = state.tokens[start] as Token;
      let end = start + 1;
      if (first.nesting === 1) {
        for (let depth = 1; depth > 0 && end < state.tokens.length; end += 1)
          depth += (state.tokens[end] as Token).nesting;
      }
      const text = first.map ? lines.slice(first.map[0], first.map[1]).join('\n') : '';
      const shown =
        media && media.size > 0 && (text.includes('/media/') || references.includes('/media/'))
          ? mediaHashesIn(text + references).flatMap((hash) => {
              const item = media.get(hash);
              return item ? [[hash, item]] : [];
            })
          : [];
      // The block's own text is the key's bulk, kept whole (no hash to collide); the rest is
      // small, the page's definitions by their hash.
      const key = `${definitions}\u0001${text.includes('![') && sawImage ? 1 : 0}\u0001${shown.length > 0 ? JSON.stringify(shown) : ''}\u0001${text}`;
      // markdown-it gives every top-level block its lines; one without is rendered, not kept.
      let block = first.map ? cache.get(key) : undefined;
      if (!block) {
        block = renderBlock(state.tokens.slice(start, end), {
          media,
          sawImage,
          references: env.references,
        });
        if (first.map) cache.set(key, block);
      }
      sawImage ||= block.sawImage;
      blocks.push(block);
      start = end;
    }
  });
  return assemble(blocks);
}

/** One top-level block's tokens (from the page's block parse) as HTML with slots. */
function renderBlock(
  tokens: Token[],
  { media, sawImage, references }: Pick<RenderEnv, 'media' | 'sawImage' | 'references'>,
): BlockHtml {
  const env: RenderEnv = { media, sawImage, references, slots: [] };
  const state = new inlineParser.core.State('', inlineParser, env);
  state.tokens = tokens;
  inlineParser.core.process(state);
  const html = renderer.renderer.render(state.tokens, renderer.options, env);
  return { html, fences: env.slots ?? [], sawImage: env.renderedImage === true };
}

/** The blocks in order: heading ids numbered across the page, fences coloured or plain. */
async function assemble(blocks: readonly BlockHtml[]): Promise<string[]> {
  const fences = blocks.flatMap((block) => block.fences);
  const coloured = fences.length > 0 ? await highlightBlocks(fences) : [];
  const seen = new Map<string, number>();
  let fence = 0;
  const fill = (_: string, base: string) => {
    if (base === '') {
      const index = fence++;
      return coloured[index] ?? fences[index]?.plain ?? '';
    }
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
  return blocks.map((block) =>
    block.html.includes(SLOT) ? block.html.replace(SLOTS, fill) : block.html,
  );
}

/**
 * The page's HTML rendered whole, in one pass: what renderMarkdown must always equal (the
 * tests compare the two on varied Markdown).
 */
export async function renderWholeMarkdown(
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
