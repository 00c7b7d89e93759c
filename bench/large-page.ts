// `bun bench/large-page.ts [--no-build] [--keys 40] [--saves 10] [--lines 5000]`: the page
// editor on a 5 000-line page (issue 25). A server as the README starts it, on a throw-away
// SQLite database (its demo seed plus one page of `--lines` lines of realistic Markdown:
// headings, paragraphs, lists, a quarter of the sections with a fenced code block in one of
// the highlighted languages), and Chromium signed in through the real form, in the page's
// editor. It then types `--keys` letters into a paragraph in the middle of the body, one at a
// time, each once the previous one's preview has arrived plus a pause (so every keystroke gets a
// preview of its own and the autosave never fires), and times keystroke → preview showing it,
// debounce included; then `--saves` times: one letter, its preview, Ctrl+S, and times the
// keystroke → the status line saying "Saved …". Both are measured inside the page (keydown to
// the DOM change), printed as median and p95. Every keystroke is also timed to the character
// painted in the body's editor (CodeMirror, issue 26: keydown → the editor's DOM changed → the
// next frame). Last, the JavaScript (gzip) the editor screen loads, against what a visitor's
// view of the same page loads. Run it at 200 lines too (`--lines 200`). Everything goes to
// 127.0.0.1; the server is stopped by PID and its database dropped. Kept out of `bun run check`.
import { parseArgs } from 'node:util';
import { type BrowserContext, chromium } from '@playwright/test';
import { createContentStore } from '../src/lib/content/content';
import { addEditor } from '../src/lib/editors/accounts';
import { createThrowAwayDatabase } from '../tests/databases';
import { startFolio } from '../tests/harness';
import { CHROMIUM_LAUNCH } from '../tests/support';
import { largeBody, MARK } from './large-page-body';

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    keys: { type: 'string', default: '40' },
    saves: { type: 'string', default: '10' },
    lines: { type: 'string', default: '5000' },
  },
});
const KEYS = Math.max(5, Math.min(500, Number(values.keys)));
const SAVES = Math.max(3, Math.min(100, Number(values.saves)));
const LINES = Math.max(100, Math.min(50_000, Number(values.lines)));
/** Between a preview's arrival and the next keystroke: a person typing slowly. */
const PAUSE_MS = 150;
const EDITOR = { email: 'bench@example.com', password: 'the bench passphrase' };
const SLUG = 'large-page';

if (!values['no-build']) {
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'ignore', stderr: 'inherit' });
  if (build.exitCode !== 0) process.exit(1);
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted.at(-1) ?? 0 };
};

/**
 * The scripts a view of `url` loads once settled (gzip, as bench/run.ts counts the budget), and
 * how much of it is the Markdown editor's chunk. Signed in (the editor) or not (a visitor).
 */
async function javaScriptOf(url: string, signedIn: boolean) {
  const context = signedIn ? editorContext : await browser.newContext();
  const page = await context.newPage();
  const sizes: { name: string; gzip: number }[] = [];
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    pending.push(
      (async () => {
        const body = await (await request.response())?.body().catch(() => null);
        if (body)
          sizes.push({
            name: new URL(request.url()).pathname,
            gzip: Bun.gzipSync(new Uint8Array(body)).length,
          });
      })(),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  // The bundle starts after the first paint (navigation.spec.ts): hydrated means it all came.
  await page.locator('html[data-hydrated="true"]').waitFor();
  if (signedIn) await page.locator('.body-codemirror .cm-content').waitFor();
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  await page.close();
  return {
    files: sizes.length,
    gzip: sizes.reduce((total, script) => total + script.gzip, 0),
    editorChunk: sizes
      .filter((script) => script.name.includes('body-codemirror'))
      .reduce((total, script) => total + script.gzip, 0),
  };
}

const database = await createThrowAwayDatabase('sqlite');
const folio = await startFolio({ database });
const browser = await chromium.launch(CHROMIUM_LAUNCH);
let editorContext: BrowserContext;
try {
  const db = await folio.database();
  await addEditor(db, EDITOR.email, EDITOR.password);
  const body = largeBody(LINES);
  await createContentStore(db).putPage(
    { slug: SLUG, title: 'A long page', summary: 'Five thousand lines.', body },
    { publish: true },
  );
  console.error(
    `page: ${body.split('\n').length} lines, ${(body.length / 1024).toFixed(0)} KB of Markdown, ${(body.match(/^```\w/gm) ?? []).length} code blocks`,
  );

  editorContext = await browser.newContext();
  const page = await editorContext.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${folio.url}/preview`);
  await page.getByLabel('Email').fill(EDITOR.email);
  await page.getByLabel('Password').fill(EDITOR.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Preview' }).getByText(EDITOR.email).waitFor();
  await page.goto(`${folio.url}/preview/${SLUG}?edit`);
  await page.getByText('(updates as you type)').waitFor({ timeout: 30_000 });

  await page.locator('.body-codemirror .cm-content').waitFor();
  // Every keydown is timed from here on: to the preview (below), and to the character painted
  // in the editor — the first change of the editor's DOM after the key, then the next frame.
  await page.evaluate(() => {
    const timed = window as unknown as { lastKeydown: number; painted: number[] };
    timed.painted = [];
    const content = document.querySelector('.body-codemirror .cm-content');
    if (!content) throw new Error('no editor');
    window.addEventListener(
      'keydown',
      (event) => {
        const started = performance.now();
        timed.lastKeydown = started;
        if (event.key.length !== 1 || event.ctrlKey) return;
        const observer = new MutationObserver(() => {
          observer.disconnect();
          requestAnimationFrame(() =>
            setTimeout(() => timed.painted.push(performance.now() - started)),
          );
        });
        observer.observe(content, { childList: true, subtree: true, characterData: true });
      },
      true,
    );
  });
  /** The caret after the mark and what was typed there (a save's re-render may move it). */
  const placeCaret = (typed: string) =>
    page.locator('.body-codemirror .cm-content').evaluate((content, text) => {
      // CodeMirror's view, as EditorView.findFromDOM finds it (tests/e2e/fixtures.ts too).
      type View = {
        state: { doc: { toString(): string } };
        dispatch: (spec: unknown) => void;
        focus: () => void;
      };
      const view = (content as unknown as { cmTile?: { root?: { view?: View } } }).cmTile?.root
        ?.view;
      if (!view) throw new Error('no editor');
      const at = view.state.doc.toString().indexOf(text) + text.length;
      view.focus();
      view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    }, typed);
  await placeCaret(MARK);

  /** Milliseconds from the last keydown until `selector`'s text has `text` in it, painted. */
  const timeUntil = (selector: string, text: string) =>
    page.evaluate(
      ({ selector, text }) =>
        new Promise<number>((resolve, reject) => {
          const element = document.querySelector(selector);
          if (!element) return reject(new Error(`no ${selector}`));
          const started = (window as unknown as { lastKeydown: number }).lastKeydown;
          const done = () => {
            if (!(element.textContent ?? '').includes(text)) return false;
            observer.disconnect();
            clearTimeout(timer);
            // Until the frame that shows it has been painted: the browser's own work counts.
            requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started)));
            return true;
          };
          const observer = new MutationObserver(done);
          const timer = setTimeout(() => {
            observer.disconnect();
            reject(new Error(`${selector} never showed “${text}”`));
          }, 20_000);
          if (!done())
            observer.observe(element, { childList: true, subtree: true, characterData: true });
        }),
      { selector, text },
    );

  let typed = '';
  const letter = (i: number) => String.fromCharCode(97 + (i % 26));
  const previews: number[] = [];
  // Two untimed keystrokes first: the first render of the page's blocks and the highlighter.
  for (let i = 0; i < KEYS + 2; i += 1) {
    typed += letter(i);
    await page.keyboard.press(letter(i));
    const ms = await timeUntil('.live-preview', `${MARK}${typed}`);
    if (i >= 2) previews.push(ms);
    await page.waitForTimeout(PAUSE_MS);
  }

  const saves: number[] = [];
  for (let i = 0; i < SAVES; i += 1) {
    await placeCaret(`${MARK}${typed}`);
    typed += letter(i);
    await page.keyboard.press(letter(i));
    await timeUntil('.live-preview', `${MARK}${typed}`);
    await page.keyboard.press('Control+s');
    saves.push(await timeUntil('.editor-status', 'Saved '));
    await page.waitForTimeout(PAUSE_MS);
  }
  const painted = await page.evaluate(() =>
    (window as unknown as { painted: number[] }).painted.slice(2),
  );
  const stored = await createContentStore(db).getPage(SLUG, { draft: true });
  if (!stored?.bodyMarkdown.includes(`${MARK}${typed}`))
    throw new Error('the last save is not in the database');

  const p = summary(previews);
  const s = summary(saves);
  const e = summary(painted);
  const editorJs = await javaScriptOf(`${folio.url}/preview/${SLUG}?edit`, true);
  const visitorJs = await javaScriptOf(`${folio.url}/${SLUG}`, false);
  console.log(
    `\n${LINES}-line page, SQLite: ${KEYS} keystrokes, ${SAVES} saves (median / p95 / worst)\n`,
  );
  console.log('| what | median | p95 | worst |');
  console.log('|---|---:|---:|---:|');
  console.log(
    `| keystroke → preview (debounce included) | ${p.p50.toFixed(0)} ms | ${p.p95.toFixed(0)} ms | ${p.max.toFixed(0)} ms |`,
  );
  console.log(
    `| keystroke → character painted in the editor (${painted.length}) | ${e.p50.toFixed(0)} ms | ${e.p95.toFixed(0)} ms | ${e.max.toFixed(0)} ms |`,
  );
  console.log(
    `| Ctrl+S → "Saved" | ${s.p50.toFixed(0)} ms | ${s.p95.toFixed(0)} ms | ${s.max.toFixed(0)} ms |`,
  );
  console.log(
    `\nJavaScript (gzip): the editor screen ${(editorJs.gzip / 1024).toFixed(1)} KB in ${editorJs.files} files (the Markdown editor's own chunk ${(editorJs.editorChunk / 1024).toFixed(1)} KB); a visitor's page ${(visitorJs.gzip / 1024).toFixed(1)} KB in ${visitorJs.files} files (the editor's chunk: ${visitorJs.editorChunk === 0 ? 'not loaded' : 'LOADED'})`,
  );
} finally {
  await browser.close();
  const code = await folio.stop();
  if (folio.unexpectedErrors().length > 0)
    console.error('server errors:', JSON.stringify(folio.unexpectedErrors()));
  if (code !== 0 && code !== 143) console.error(`server exited with ${code}`);
}
