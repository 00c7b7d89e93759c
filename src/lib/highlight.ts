// Owns syntax highlighting of fenced code: done once, when a page is saved, on the server, so
// visitors get coloured code with no JavaScript (docs/decisions/0017). Shiki with the
// Oniguruma engine (VS Code's grammars, exactly as VS Code colours them; Shiki's JavaScript
// engine mis-coloured TypeScript here), a fixed set of languages loaded once per process, and
// two themes written as CSS variables so site.css picks light or dark with the reader's setting.
import 'server-only';
import { createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createOnigurumaEngine } from 'shiki/engine/oniguruma';
import { processSingleton } from './process-singleton';

// Highlighting runs on the request's thread, and a grammar's cost depends on the text (the
// hostile pass found 200 KB of `a<a<…` in ten TypeScript blocks held the server 50 s, and the
// HTML grows 20–60 times). So each render has a budget, and what is past it stays plain.
/** Blocks longer than this stay plain. */
export const HIGHLIGHT_MAX_CHARS = 8_000;
/**
 * A render highlights at most this much code in all (the rest is shown plain): the budget
 * that decides, so the same text always gives the same HTML. Worst case measured: about
 * 0.5 s for 20 000 characters of the costliest TypeScript (`a<a<…`), 20 ms for ordinary code.
 */
export const HIGHLIGHT_BUDGET_CHARS = 20_000;
/** A last resort on a starved machine: past this, a render's later blocks are plain. */
export const HIGHLIGHT_BUDGET_MS = 1_000;
/** Lines longer than this (minified code, data) are left uncoloured by the tokenizer. */
const LONGEST_TOKENIZED_LINE = 1_000;
/** The tokenizer gives up on a line after this long (the rest of the line stays uncoloured). */
const LINE_TIME_LIMIT_MS = 10;

/** What one render may still spend; made per render by `withHighlightBudget`. */
type Budget = { chars: number; until: number };
let budget: Budget | null = null;

/**
 * Runs a synchronous render with a fresh highlighting budget: the Markdown renderer calls
 * `highlightCode` from inside `render`, with no way to pass it along, and nothing else can
 * run in between (the render is synchronous), so a variable holds it for the duration.
 */
export function withHighlightBudget<T>(render: () => T): T {
  budget = { chars: HIGHLIGHT_BUDGET_CHARS, until: performance.now() + HIGHLIGHT_BUDGET_MS };
  try {
    return render();
  } finally {
    budget = null;
  }
}

const THEMES = { light: 'github-light-default', dark: 'github-dark-default' } as const;

function createHighlighter(): Promise<HighlighterCore> {
  return createHighlighterCore({
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
  });
}

type Highlighting = { ready: Promise<HighlighterCore>; loaded: HighlighterCore | null };

function highlighting(): Highlighting {
  return processSingleton('highlighter', () => {
    const state: Highlighting = { ready: createHighlighter(), loaded: null };
    state.ready.then(
      (highlighter) => {
        state.loaded = highlighter;
      },
      () => undefined,
    );
    return state;
  });
}

/** Resolves once code can be highlighted in this process (the grammars are loaded once). */
export async function highlighterReady(): Promise<void> {
  await highlighting().ready;
}

/**
 * The fenced block as highlighted HTML (a complete `<pre>`), or null when it is to be shown
 * plain: no or an unknown language, a block too long, or the highlighter not loaded yet
 * (callers await `highlighterReady` first; a render that did not is never held up).
 */
export function highlightCode(code: string, language: string): string | null {
  const highlighter = highlighting().loaded;
  const lang = language.trim().toLowerCase();
  if (!highlighter || !lang || code.length > HIGHLIGHT_MAX_CHARS) return null;
  if (!highlighter.getLoadedLanguages().includes(lang)) return null;
  if (budget && (budget.chars < code.length || performance.now() > budget.until)) return null;
  if (budget) budget.chars -= code.length;
  // markdown-it hands over the block with its final newline, which would be an empty line.
  return highlighter.codeToHtml(code.replace(/\n$/, ''), {
    lang,
    themes: THEMES,
    defaultColor: false,
    tokenizeMaxLineLength: LONGEST_TOKENIZED_LINE,
    tokenizeTimeLimit: LINE_TIME_LIMIT_MS,
  });
}
