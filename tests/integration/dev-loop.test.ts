// The development loop as a new developer meets it (issue 15): `bun run dev` on a copy of this
// project with a server component and a client component that fail, and Spotlight's sidecar
// (`bun run spotlight`, pinned in tools/spotlight) running beside it as the README has it. In
// development only the error's message and stack are on the error page and once, readably, in
// the terminal; the log line carries the error; a client navigation to the failing page says
// "server-side"; the CSP lets React's development build use eval() (and only there); errors
// and traces from the server and from the browser reach Spotlight.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { createThrowAwayDatabase, TEST_ENGINE } from '../databases';
import { freePort, waitFor } from '../harness';
import { CHROMIUM_LAUNCH } from '../support';

const SERVER_FAILURE = 'Dev check: the server component failed';
const CLIENT_FAILURE = 'Dev check: the client component failed';

/** A copy of the project's tracked files (node_modules shared), plus two failing pages. */
function projectCopy(): string {
  const root = path.resolve(import.meta.dir, '../..');
  const copy = mkdtempSync(path.join(tmpdir(), 'folio-dev-'));
  const tracked = Bun.spawnSync(['git', 'ls-files', '-z'], { cwd: root }).stdout.toString();
  for (const file of tracked.split('\0').filter(Boolean)) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(path.join(root, file), path.join(copy, file));
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
  writeFileSync(
    path.join(copy, 'src/pages/(site)/dev-failure.tsx'),
    `export default async function DevFailure() {\n  throw new Error(${JSON.stringify(SERVER_FAILURE)});\n}\nexport const getConfig = async () => ({ render: 'dynamic' }) as const;\n`,
  );
  writeFileSync(
    path.join(copy, 'src/components/dev-failure-button.tsx'),
    `'use client';\nimport { useState } from 'react';\nfunction Thrower(): never {\n  throw new Error(${JSON.stringify(CLIENT_FAILURE)});\n}\nexport function DevFailureButton() {\n  const [on, setOn] = useState(false);\n  return (<><button type="button" onClick={() => setOn(true)}>Fail</button>{on ? <Thrower /> : null}</>);\n}\n`,
  );
  writeFileSync(
    path.join(copy, 'src/pages/(site)/dev-client-failure.tsx'),
    `import { DevFailureButton } from '../../components/dev-failure-button';\nexport default async function DevClientFailure() {\n  return (<section><h1>Client failure</h1><a href="/dev-failure">To the failing page</a><DevFailureButton /></section>);\n}\nexport const getConfig = async () => ({ render: 'dynamic' }) as const;\n`,
  );
  writeFileSync(path.join(copy, HOT_PAGE), hotPage(false));
  return copy;
}

/** A page the hot-update test breaks and fixes while it is open in the browser. */
const HOT_PAGE = 'src/pages/(site)/dev-hot.tsx';
const hotPage = (broken: boolean) =>
  `export default async function DevHot() {\n  ${broken ? `throw new Error('Dev check: broken while open');` : ''}\n  return <section><h1>Hot page works</h1></section>;\n}\nexport const getConfig = async () => ({ render: 'dynamic' }) as const;\n`;

/** What the sidecar received: its event stream, read as Spotlight's UI reads it. */
type Envelope = [Record<string, unknown>, [Record<string, unknown>, Record<string, unknown>][]];
function readSidecar(url: string, into: Envelope[]): AbortController {
  const stop = new AbortController();
  void (async () => {
    const response = await fetch(url, {
      headers: { accept: 'text/event-stream' },
      signal: stop.signal,
    });
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body as ReadableStream<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines)
        if (line.startsWith('data: ')) into.push(JSON.parse(line.slice(6)) as Envelope);
    }
  })().catch(() => undefined);
  return stop;
}

const items = (envelopes: Envelope[], type: string) =>
  envelopes.flatMap(([header, list]) =>
    list
      .filter(([itemHeader]) => itemHeader.type === type)
      .map(([, payload]) => ({ source: header.__spotlight_inferred_source, payload })),
  );

// On SQLite whichever half runs it (the dev loop is not about the engine): the PostgreSQL half
// of `bun run test` would run the same test again.
describe.skipIf(TEST_ENGINE === 'postgres')('bun run dev', () => {
  let dev: ReturnType<typeof Bun.spawn>;
  let sidecar: ReturnType<typeof Bun.spawn>;
  let stopReading: AbortController | undefined;
  const received: Envelope[] = [];
  let sidecarUrl = '';
  let output = '';
  let base = '';
  let browser: Browser;
  let copy = '';

  beforeAll(async () => {
    copy = projectCopy();
    const database = await createThrowAwayDatabase('sqlite');
    // Spotlight first, as the README says: `bun run spotlight`, on a port of its own.
    const sidecarPort = freePort();
    sidecar = Bun.spawn(
      ['setsid', 'bun', 'run', 'spotlight', 'server', '-p', String(sidecarPort)],
      {
        cwd: path.resolve(import.meta.dir, '../..'),
        stdout: 'ignore',
        stderr: 'ignore',
      },
    );
    sidecarUrl = `http://localhost:${sidecarPort}/stream`;
    await waitFor(
      async () =>
        (await fetch(`http://localhost:${sidecarPort}/`).catch(() => null))?.status === 200
          ? true
          : undefined,
      { timeoutMs: 60_000, what: 'the Spotlight sidecar' },
    );
    stopReading = readSidecar(sidecarUrl, received);
    const port = freePort();
    base = `http://127.0.0.1:${port}`;
    // A session of its own (setsid): the dev server's child processes stop with it.
    dev = Bun.spawn(['setsid', 'bun', 'run', 'dev'], {
      cwd: copy,
      env: {
        ...process.env,
        NODE_ENV: undefined,
        PORT: String(port),
        DATABASE_URL: database.url,
        SENTRY_DSN: undefined,
        WAKU_PUBLIC_SENTRY_DSN: undefined,
        SENTRY_SPOTLIGHT: sidecarUrl,
      },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    for (const stream of [dev.stdout, dev.stderr] as ReadableStream<Uint8Array>[])
      void (async () => {
        const decoder = new TextDecoder();
        for await (const chunk of stream) output += decoder.decode(chunk);
      })();
    await waitFor(() => (output.includes('Listening on') ? true : undefined), {
      timeoutMs: 60_000,
      // Asked at the timeout: the output by then says why it did not start.
      what: () => `the dev server to listen (output so far: ${output.slice(-500)})`,
    });
    browser = await chromium.launch(CHROMIUM_LAUNCH);
  }, 90_000);

  afterAll(async () => {
    stopReading?.abort();
    await browser?.close();
    // Each started in a session of its own: the whole group stops (Spotlight's node process,
    // the dev server's).
    for (const child of [sidecar, dev]) {
      try {
        if (child) process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      await child?.exited;
    }
    // The copy (its node_modules is a link: only the link goes).
    if (copy) rmSync(copy, { recursive: true, force: true });
  }, 20_000);

  test('a failing server component: its message and stack on the page and once in the terminal', async () => {
    const before = output.length;
    const response = await fetch(`${base}/dev-failure`);
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain('Application error: a server-side exception has occurred');
    expect(html).toContain(SERVER_FAILURE);
    // The site's icon, so the browser asks no /favicon.ico of its own (a 404 in its console).
    expect(html).toContain('<link rel="icon" href="/favicon.svg"');
    expect(html).toMatch(/at DevFailure \(.*dev-failure\.tsx/);
    // Development only: React's development build may use eval().
    expect(response.headers.get('content-security-policy')).toContain("'unsafe-eval'");
    const printed = await waitFor(() => {
      const since = output.slice(before);
      return since.includes('at DevFailure') ? since : undefined;
    });
    // One structured line that names the error (not "HTTP 500 without a reported error")...
    const lines = printed.split('\n').filter((line) => line.startsWith('{'));
    const reported = lines
      .map(
        (line) =>
          JSON.parse(line) as { msg?: string; where?: string; error?: { message?: string } },
      )
      .filter((line) => line.msg === 'unexpected error');
    expect(reported).toHaveLength(1);
    expect(reported[0]?.where).toBe('render');
    expect(reported[0]?.error?.message).toBe(SERVER_FAILURE);
    // ...and the stack once, as lines a person reads, not as one line of "\n".
    expect(printed.split(SERVER_FAILURE).length - 1).toBe(2);
    expect(printed.match(/^ {4}at DevFailure /gm)?.length).toBe(1);
    expect(printed).not.toContain('\\n    at ');
    expect(printed).not.toContain('without a reported error');
  }, 60_000);

  test('in the browser: a failing client component shows its stack; a client navigation to a failing server page says server-side', async () => {
    const page = await browser.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${base}/dev-client-failure`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', null, {
      timeout: 30_000,
    });
    await page.getByRole('link', { name: 'To the failing page' }).click();
    await page.waitForURL(`${base}/dev-failure`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.getByRole('heading', { level: 1 }).first().textContent()).toContain(
      'a server-side exception has occurred',
    );
    expect(await page.locator('.dev-error pre').textContent()).toContain(SERVER_FAILURE);

    await page.goto(`${base}/dev-client-failure`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', null, {
      timeout: 30_000,
    });
    // The error's envelope on its way to Spotlight (read in the last test).
    const sent = page.waitForRequest(
      (request) =>
        request.url() === sidecarUrl &&
        request.method() === 'POST' &&
        (request.postData() ?? '').includes(CLIENT_FAILURE),
      { timeout: 30_000 },
    );
    await page.getByRole('button', { name: 'Fail' }).click();
    await page.locator('.dev-error pre').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).first().textContent()).toContain(
      'a client-side exception has occurred',
    );
    expect(await page.locator('.dev-error pre').textContent()).toContain(CLIENT_FAILURE);
    // Reported: the SDK loaded for this error and sent it to the sidecar.
    expect((await (await sent).response())?.status()).toBe(200);
    // No page of the dev server is refused eval() by the CSP any more.
    expect(
      consoleErrors.filter((text) => /unsafe-eval|Content Security Policy/.test(text)),
    ).toEqual([]);
    await page.close();
  }, 90_000);

  // The hostile pass's repro: a server component broken and fixed again while its page is open
  // left the page on the error until a reload.
  test('a server component broken and fixed while open: the page shows the error, then recovers', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/dev-hot`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', null, {
      timeout: 30_000,
    });
    await page.getByRole('heading', { name: 'Hot page works' }).waitFor();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    // Each edit is a Vite recompile and an HMR update: on a loaded two-core machine one took
    // longer than 20 s (a CI=true check run beside two busy loops), so each waits up to 45 s.
    writeFileSync(path.join(copy, HOT_PAGE), hotPage(true));
    await page.getByText('Dev check: broken while open').first().waitFor({ timeout: 45_000 });
    writeFileSync(path.join(copy, HOT_PAGE), hotPage(false));
    const works = page.getByRole('heading', { name: 'Hot page works' });
    // Seen twice in full runs on a quiet machine (never alone, nor beside two busy loops): the
    // page stayed on the error after the fix. The dev server's two refetches (broken, fixed)
    // can cross, the broken one answering last; nothing sends a third. What this test holds is
    // our part — a hot update clears the error boundary without a reload — so a second save,
    // as a developer would make, is allowed; a boundary that never clears still fails.
    const recovered = await works.waitFor({ timeout: 15_000 }).then(
      () => true,
      () => false,
    );
    if (!recovered) {
      writeFileSync(path.join(copy, HOT_PAGE), `${hotPage(false)}\n`);
      await works.waitFor({ timeout: 45_000 });
    }
    // The same document throughout: recovered by the hot update, not by a reload.
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    await page.close();
  }, 120_000);

  test('Spotlight received errors and traces from the server and from the browser', async () => {
    // The tests above made them: a failing server component, a failing client component, and
    // page loads on both sides.
    const errors = await waitFor(
      () => {
        const events = items(received, 'event');
        const server = events.find((e) => JSON.stringify(e.payload).includes(SERVER_FAILURE));
        const browser = events.find((e) => JSON.stringify(e.payload).includes(CLIENT_FAILURE));
        return server && browser ? { server, browser } : undefined;
      },
      { timeoutMs: 20_000, what: 'both errors in Spotlight' },
    );
    expect(errors.server.source).toBe('server');
    // The dev server's events say where they come from (they said "production").
    expect(errors.server.payload.environment).toBe('development');
    expect((errors.browser.payload.sdk as { name?: string }).name).toBe('sentry.javascript.react');
    // Traces, sent whole for Spotlight (traceLifecycle static): the dev server's request and
    // the browser's page load.
    const traces = await waitFor(
      () => {
        const transactions = items(received, 'transaction').map(
          (item) =>
            item.payload as { transaction?: string; contexts?: { trace?: { op?: string } } },
        );
        const server = transactions.find(
          (t) =>
            t.contexts?.trace?.op === 'http.server' && t.transaction === 'GET /dev-client-failure',
        );
        const browser = transactions.find((t) => t.contexts?.trace?.op === 'pageload');
        return server && browser ? { server, browser } : undefined;
      },
      { timeoutMs: 20_000, what: 'server and browser traces in Spotlight' },
    );
    expect(traces.browser.transaction).toBeDefined();
    // Vite's own requests (modules, /@react-refresh) are not Folio's traces.
    const names = items(received, 'transaction').map(
      (item) => (item.payload as { transaction?: string }).transaction ?? '',
    );
    expect(names.filter((name) => /^[A-Z]+ \/(?:src|node_modules|@)/.test(name))).toEqual([]);
  }, 40_000);
});
