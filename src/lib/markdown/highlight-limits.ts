// What one render may highlight (highlight-worker.ts applies it; tests read it). Highlighting
// cost depends on the text: a hostile pass found ten TypeScript blocks of `a<a<…` held the
// server 50 s and grew to 13 MB of HTML. What is past these limits is shown plain.

/** Blocks longer than this stay plain. */
export const HIGHLIGHT_BLOCK_MAX_CHARS = 8_000;
/**
 * A render highlights at most this much code in all: the budget that decides, so the same
 * text always gives the same HTML. Measured worst case: about 0.5 s for 20 000 characters of
 * the costliest TypeScript (`a<a<…`), 20 ms for ordinary code.
 */
export const HIGHLIGHT_RENDER_BUDGET_CHARS = 20_000;

/**
 * The language names (and aliases) the worker loads: a fence in any other language is plain,
 * and costs a render none of its budget. Known here, in the serving thread, so a render decides
 * which blocks to colour (and finds those already coloured) before it asks the worker.
 */
export const HIGHLIGHTED_LANGUAGES: ReadonlySet<string> = new Set([
  'bash',
  'cjs',
  'css',
  'cts',
  'diff',
  'go',
  'html',
  'javascript',
  'js',
  'json',
  'jsx',
  'mjs',
  'mts',
  'py',
  'python',
  'rs',
  'rust',
  'sh',
  'shell',
  'shellscript',
  'sql',
  'toml',
  'ts',
  'tsx',
  'typescript',
  'yaml',
  'yml',
  'zsh',
]);
