// Owns syntax highlighting of fenced code: done once, when a page is saved, on the server, so
// visitors get coloured code with no JavaScript (docs/decisions/0017). Shiki (VS Code's
// grammars and themes, Oniguruma engine) runs in a worker thread of its own
// (highlight-worker.ts): a costly block never holds up the requests this thread serves, and
// the highlighter's memory (its grammars and WASM heap, 60–130 MB measured) is given back when
// the worker ends after a quiet minute. Both themes are written as CSS variables, so site.css
// picks light or dark with the reader's setting.
import 'server-only';
import path from 'node:path';
import { log } from '../observability/log';
import { processSingleton } from '../runtime/process-singleton';
import { ByteLru } from './byte-lru';
import {
  HIGHLIGHT_BLOCK_MAX_CHARS,
  HIGHLIGHT_RENDER_BUDGET_CHARS,
  HIGHLIGHTED_LANGUAGES,
} from './highlight-limits';
import type { HighlightReply, HighlightRequest } from './highlight-worker';

/** A render waits at most this long for its code to be coloured; then it is shown plain. */
const WAIT_MS = 3_000;
/**
 * More a render waits while the worker is still starting (loading Shiki, its grammars and
 * WASM: under a second when idle, past 3 s on a busy two-core machine, where a CI run saw
 * `db seed` give up twice and keep the demo's code plain for good).
 */
const START_MS = 12_000;
/** The worker ends after this long without work (and starts again when asked). */
const IDLE_MS = 60_000;
/**
 * Coloured blocks kept, by language and code (issue 25): a keystroke in a long page re-renders
 * it whole, and colouring its code again was most of the time (0.3–0.5 s for 69 blocks). 16 MiB
 * holds the code of some 40 pages at the render budget (HTML is ~20× the code it colours).
 */
export const HIGHLIGHT_CACHE_BYTES = 16 * 1024 * 1024;

function colouredCache(): ByteLru<string> {
  return processSingleton(
    'highlighted-blocks',
    () => new ByteLru<string>(HIGHLIGHT_CACHE_BYTES, (html) => 2 * html.length),
  );
}

/** The worker's answer: each block's colouring, and whether it is whole (fit to keep). */
type Coloured = { html: (string | null)[]; whole: boolean[] };
type Pending = { resolve: (answer: Coloured) => void; timer: ReturnType<typeof setTimeout> };
type Highlighting = {
  worker: Worker | null;
  /** Whether the worker has not answered yet (it is still starting). */
  starting: boolean;
  pending: Map<number, Pending>;
  nextId: number;
  idle: ReturnType<typeof setTimeout> | null;
};

/** The worker's script: the built one beside the server, or the source (dev, tests, CLI). */
function workerUrl(): string | URL {
  return import.meta.url.includes('/dist/server/')
    ? path.resolve('dist/server/highlight-worker.js')
    : new URL('./highlight-worker.ts', import.meta.url);
}

function state(): Highlighting {
  return processSingleton('highlighting', () => ({
    worker: null,
    starting: false,
    pending: new Map(),
    nextId: 1,
    idle: null,
  }));
}

/** Ends the worker: every render waiting for it gets plain code. */
function stop(reason?: string) {
  const current = state();
  if (reason) log.warn('syntax highlighting stopped', { reason });
  current.worker?.terminate();
  current.worker = null;
  if (current.idle) clearTimeout(current.idle);
  current.idle = null;
  for (const [id, waiting] of current.pending) {
    clearTimeout(waiting.timer);
    current.pending.delete(id);
    waiting.resolve({ html: [], whole: [] });
  }
}

function worker(): Worker {
  const current = state();
  if (current.worker) return current.worker;
  const started = new Worker(workerUrl());
  // A CLI command or a test must be able to exit while the worker idles (Bun's Worker).
  (started as Worker & { unref(): void }).unref();
  started.onmessage = (event: MessageEvent<HighlightReply>) => {
    current.starting = false;
    const reply = event.data;
    const waiting = current.pending.get(reply.id);
    if (!waiting) return;
    current.pending.delete(reply.id);
    clearTimeout(waiting.timer);
    if ('error' in reply) {
      log.error('syntax highlighting failed', { error: reply.error });
      waiting.resolve({ html: [], whole: [] });
    } else waiting.resolve({ html: reply.html, whole: reply.whole });
  };
  started.onerror = (event) => stop(event.message || 'the worker failed');
  current.worker = started;
  current.starting = true;
  return started;
}

/**
 * Each fenced block as highlighted HTML (a complete `<pre>`), or null where it is to be
 * shown plain: no or an unknown language, a block or a page's code past the budget, or the
 * worker too slow or broken (then it is ended, and the next render starts another). Which
 * blocks are coloured is decided here, in order, by the budget alone, so the same text always
 * gives the same HTML whichever blocks were coloured before; those are taken from the cache.
 */
export async function highlightBlocks(
  blocks: readonly { code: string; language: string }[],
): Promise<(string | null)[]> {
  const cache = colouredCache();
  let budget = HIGHLIGHT_RENDER_BUDGET_CHARS;
  const html: (string | null)[] = [];
  // Blocks not coloured yet, each asked once however often the page repeats it.
  const missing = new Map<string, { code: string; language: string; at: number[] }>();
  blocks.forEach(({ code, language }, index) => {
    html.push(null);
    const lang = language.trim().toLowerCase();
    if (!HIGHLIGHTED_LANGUAGES.has(lang) || code.length > HIGHLIGHT_BLOCK_MAX_CHARS) return;
    if (code.length > budget) return;
    budget -= code.length;
    const key = `${lang}\n${code}`;
    const kept = cache.get(key);
    if (kept !== undefined) html[index] = kept;
    else {
      const asked = missing.get(key);
      if (asked) asked.at.push(index);
      else missing.set(key, { code, language: lang, at: [index] });
    }
  });
  if (missing.size === 0) return html;
  const asked = [...missing];
  const { coloured, whole, warm } = await fromWorker(
    asked.map(([, { code, language }]) => ({ code, language })),
  );
  asked.forEach(([key, { at }], i) => {
    const block = coloured[i];
    // Null here is a worker that failed or was too slow: not kept, tried again next time.
    if (typeof block !== 'string') return;
    for (const index of at) html[index] = block;
    // A worker's first answer may have lines cut short by the per-line time limit while its
    // grammars compiled (on a busy machine), and so may any block that took as long as that
    // limit: shown, not kept, coloured again next time.
    if (warm && whole[i] === true) cache.set(key, block);
  });
  return html;
}

/** The worker's colouring of these blocks (all within the budget). */
async function fromWorker(
  blocks: readonly { code: string; language: string }[],
): Promise<{ coloured: (string | null)[]; whole: boolean[]; warm: boolean }> {
  const current = state();
  const id = current.nextId++;
  if (current.idle) clearTimeout(current.idle);
  let warm = false;
  const answer = await new Promise<Coloured>((resolve) => {
    const running = worker();
    warm = !current.starting;
    const wait = current.starting ? WAIT_MS + START_MS : WAIT_MS;
    const timer = setTimeout(() => stop(`no answer within ${wait} ms`), wait);
    current.pending.set(id, { resolve, timer });
    running.postMessage({ id, blocks: [...blocks] } satisfies HighlightRequest);
  });
  if (current.pending.size === 0 && current.worker) {
    current.idle = setTimeout(() => stop(), IDLE_MS);
    (current.idle as { unref?: () => void }).unref?.();
  }
  return {
    coloured: blocks.map((_, index) => answer.html[index] ?? null),
    whole: blocks.map((_, index) => answer.whole[index] ?? false),
    warm,
  };
}
