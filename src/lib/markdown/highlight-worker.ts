// The syntax highlighter's own thread (see highlight.ts): Shiki, its grammars and its WASM
// regex engine live here, not in the thread that serves pages, so highlighting never holds up
// a request and its memory is given back when the thread ends. No 'server-only' import: this
// file is run as a worker, where that guard would throw.
import { createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createOnigurumaEngine } from 'shiki/engine/oniguruma';
import { HIGHLIGHT_BLOCK_MAX_CHARS, HIGHLIGHT_RENDER_BUDGET_CHARS } from './highlight-limits';

declare const self: Worker;

/** Lines longer than this (minified code, data) are left uncoloured by the tokenizer. */
const LONGEST_TOKENIZED_LINE = 1_000;
/**
 * The tokenizer gives up on a line after this long (the rest of the line stays uncoloured).
 * Not less: a grammar's first use compiles its expressions, and at 10 ms the demo's first
 * TypeScript line came out half coloured on a busy machine.
 */
const LINE_TIME_LIMIT_MS = 50;

const THEMES = { light: 'github-light-default', dark: 'github-dark-default' } as const;

let highlighter: Promise<HighlighterCore> | null = null;

/** A line of what code usually holds: types, a call, a template string, a comment, a block. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal is what the sample shows
const WARM_UP_SAMPLE = 'const a: Array<string> = f(`x${y}`); // c\nif (a) { return "s" }';

function load(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [
      import('shiki/themes/github-light-default.mjs'),
      import('shiki/themes/github-dark-default.mjs'),
    ],
    // What pages of a software team's site show; anything else is shown plain.
    langs: [
      import('shiki/langs/bash.mjs'),
      import('shiki/langs/css.mjs'),
      import('shiki/langs/diff.mjs'),
      import('shiki/langs/go.mjs'),
      import('shiki/langs/html.mjs'),
      import('shiki/langs/javascript.mjs'),
      import('shiki/langs/json.mjs'),
      import('shiki/langs/jsx.mjs'),
      import('shiki/langs/python.mjs'),
      import('shiki/langs/rust.mjs'),
      import('shiki/langs/sql.mjs'),
      import('shiki/langs/toml.mjs'),
      import('shiki/langs/tsx.mjs'),
      import('shiki/langs/typescript.mjs'),
      import('shiki/langs/yaml.mjs'),
    ],
    engine: createOnigurumaEngine(import('shiki/wasm')),
  }).then((loaded) => {
    // Compile each grammar's common expressions now, while nobody waits on a line's limit.
    for (const lang of ['typescript', 'tsx', 'javascript', 'python', 'bash', 'sql', 'json'])
      loaded.codeToHtml(WARM_UP_SAMPLE, {
        lang,
        themes: THEMES,
        defaultColor: false,
      });
    return loaded;
  });
  return highlighter;
}

export type HighlightRequest = { id: number; blocks: { code: string; language: string }[] };
export type HighlightReply =
  /**
   * `whole[i]`: block i took less than a line's time limit in all, so no line of it can have
   * been cut short: only such a colouring may be kept (highlight.ts caches it; a half-coloured
   * block kept would be shown, and published, until evicted).
   */
  { id: number; html: (string | null)[]; whole: boolean[] } | { id: number; error: string };

self.onmessage = async (event: MessageEvent<HighlightRequest>) => {
  const { id, blocks } = event.data;
  try {
    const shiki = await load();
    const known = new Set(shiki.getLoadedLanguages());
    let budget = HIGHLIGHT_RENDER_BUDGET_CHARS;
    const whole: boolean[] = [];
    const html = blocks.map(({ code, language }, index) => {
      whole[index] = false;
      const lang = language.trim().toLowerCase();
      if (
        !lang ||
        !known.has(lang) ||
        code.length > HIGHLIGHT_BLOCK_MAX_CHARS ||
        code.length > budget
      )
        return null;
      budget -= code.length;
      const started = performance.now();
      // markdown-it hands over the block with its final newline, which would be an empty line.
      const coloured = shiki.codeToHtml(code.replace(/\n$/, ''), {
        lang,
        themes: THEMES,
        defaultColor: false,
        tokenizeMaxLineLength: LONGEST_TOKENIZED_LINE,
        tokenizeTimeLimit: LINE_TIME_LIMIT_MS,
      });
      whole[index] = performance.now() - started < LINE_TIME_LIMIT_MS;
      return coloured;
    });
    self.postMessage({ id, html, whole } satisfies HighlightReply);
  } catch (error) {
    self.postMessage({ id, error: String(error) } satisfies HighlightReply);
  }
};
