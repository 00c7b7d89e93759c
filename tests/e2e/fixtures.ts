// Shared e2e fixtures: direct access to the server's database (beside the server, as another
// process would), an editor sign-in, and a guard that fails a test when a page logs an error
// it did not expect.
//
// Signing in: `signIn` mints a session in the database the way a sign-in does (accounts.ts's
// createSession) and gives the browser the cookie a sign-in sets (session.ts: folio_session,
// HttpOnly, SameSite=Lax, Path=/, host-only, not Secure on http, a week's Max-Age) — one INSERT
// instead of a form, a password hash check and a throttle reservation per test. preview.spec.ts
// keeps the real form (`signInWithForm`) and checks that both give the same cookie.
import {
  type BrowserContext,
  test as base,
  expect,
  type Locator,
  type Page,
  type Request,
} from '@playwright/test';
import { type ContentStore, createContentStore } from '../../src/lib/content/content';
import { type Database, openDatabase } from '../../src/lib/data/db';
import { createSession } from '../../src/lib/editors/accounts';
import { PAGE_DATA_PARAM } from '../../src/lib/http/page-data-address';
import { SESSION_COOKIE } from '../../src/lib/http/routes';
import { E2E_EDITOR } from './editor-account';

export const EDITOR = E2E_EDITOR;

/**
 * The tag of a test whose outcome is the browser's side only — what the page does before or
 * around a request (a refusal before sending, a drop target, the preview's block swap, a
 * shortcut), or the markup's alone (an axe check of a screen other tests use on both engines)
 * — while the request it makes is tested on both engines by `bun test`. The PostgreSQL half of
 * `test:e2e` leaves these out (playwright.config.ts).
 */
export const BROWSER_SIDE = { tag: '@browser-side' } as const;

export function databaseUrl(): string {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error('E2E_DATABASE_URL is not set (tests/e2e/global-setup.ts sets it)');
  return url;
}

// Chromium logs every 4xx document or fetch ("Failed to load resource: … status of 404"): that
// is the browser reporting an HTTP status a test asked for, not a script failing.
const HTTP_STATUS_NOTE = /^Failed to load resource: the server responded with a status of 4\d\d/;

const allowances = new WeakMap<Page, RegExp[]>();

/** Errors this page is expected to log (a test error button, a blocked script…). */
export function allowPageErrors(page: Page, ...patterns: RegExp[]): void {
  allowances.set(page, [...(allowances.get(page) ?? []), ...patterns]);
}

/** Starts collecting the page's unexpected console errors and uncaught exceptions. */
export function watchPageErrors(page: Page): () => string[] {
  const problems: string[] = [];
  const unexpected = (text: string) =>
    !HTTP_STATUS_NOTE.test(text) && !(allowances.get(page) ?? []).some((re) => re.test(text));
  page.on('console', (message) => {
    if (message.type() === 'error' && unexpected(message.text()))
      problems.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    if (unexpected(`${error.name}: ${error.message}`))
      problems.push(`uncaught: ${error.name}: ${error.message}`);
  });
  return () => [...problems];
}

type Fixtures = {
  store: ContentStore;
  /** A session for the e2e editor, minted in the database: its cookie's value. */
  mintSession: () => Promise<{ value: string; expiresAt: Date }>;
  seedPage: (page: {
    slug: string;
    title: string;
    body: string;
    publish?: boolean;
  }) => Promise<void>;
  /**
   * Signs the page's browser context in (a minted session) and opens `at` (an editor's screen,
   * /preview by default), checking its bar names the editor: a test that starts on another
   * screen loads it at once, not the dashboard first.
   */
  signIn: (page: Page, at?: string) => Promise<void>;
  /** Signs in through the real form on /preview, as an editor does. */
  signInWithForm: (page: Page) => Promise<void>;
};

type WorkerFixtures = { workerDatabase: Database };

/** The cookie a sign-in sets (session.ts), for Playwright's cookie jar. */
export function sessionCookie(baseUrl: string, session: { value: string; expiresAt: Date }) {
  const url = new URL(baseUrl);
  return {
    name: SESSION_COOKIE,
    value: session.value,
    // A host-only cookie: the server sets no Domain attribute.
    domain: url.hostname,
    path: '/',
    httpOnly: true,
    secure: url.protocol === 'https:',
    sameSite: 'Lax' as const,
    expires: Math.floor(session.expiresAt.getTime() / 1000),
  };
}

async function signedInAtPreview(page: Page): Promise<void> {
  await expect(page.getByRole('navigation', { name: 'Preview' })).toContainText(EDITOR.email);
}

async function addSession(
  context: BrowserContext,
  baseUrl: string,
  session: { value: string; expiresAt: Date },
): Promise<void> {
  await context.addCookies([sessionCookie(baseUrl, session)]);
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  // One connection per worker for minting sessions (each test used to open its own).
  workerDatabase: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
    async ({}, use) => {
      const db = await openDatabase(databaseUrl(), { migrate: false, poolSize: 1 });
      await use(db);
      await db.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ page }, use) => {
    const problems = watchPageErrors(page);
    await use(page);
    expect(problems(), 'errors the page logged').toEqual([]);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
  store: async ({}, use) => {
    const db = await openDatabase(databaseUrl(), { migrate: false, poolSize: 2 });
    await use(createContentStore(db));
    await db.close();
  },
  seedPage: async ({ store }, use) => {
    const created: string[] = [];
    await use(async ({ slug, title, body, publish = true }) => {
      await store.putPage({ slug, title, summary: `${title} summary`, body }, { publish });
      created.push(slug);
    });
    // Clean up what the test made, whatever it renamed the page to.
    for (const slug of created) {
      for (const candidate of [
        slug,
        ...(await store.listAll()).map((p) => p.slug).filter((s) => s.startsWith(slug)),
      ]) {
        if (await store.getPage(candidate, { draft: true })) {
          await store.unpublish(candidate);
          await store.discardDraft(candidate);
        }
      }
    }
  },
  mintSession: async ({ workerDatabase }, use) => {
    await use(async () => {
      const [editor] = await workerDatabase.query<{ id: number }>`
        SELECT id FROM editors WHERE email = ${EDITOR.email}`;
      if (!editor) throw new Error(`no editor ${EDITOR.email} (tests/e2e/global-setup.ts adds it)`);
      const session = await createSession(workerDatabase.query, Number(editor.id));
      return { value: session.id, expiresAt: session.expiresAt };
    });
  },
  signIn: async ({ mintSession, baseURL }, use) => {
    await use(async (page: Page, at = '/preview') => {
      await addSession(page.context(), baseURL ?? '', await mintSession());
      await page.goto(at);
      await signedInAtPreview(page);
    });
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
  signInWithForm: async ({}, use) => {
    await use(async (page: Page) => {
      await page.goto('/preview');
      await page.getByLabel('Email').fill(EDITOR.email);
      await page.getByLabel('Password').fill(EDITOR.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await signedInAtPreview(page);
    });
  },
});

export { expect };

/**
 * Counts the page's requests still unanswered, from now on (but the monitoring tunnel's). A test that moved the page's clock
 * past a timer waits for this to reach 0 before reading the database: whatever the timer sent
 * has then been answered (Playwright reports a request before the clock call that made it
 * returns).
 */
export function requestsInFlight(page: Page): () => number {
  const pending = new Set<Request>();
  page.on('request', (request) => {
    // The monitoring tunnel's posts are keepalive fetches, which Chromium never reports
    // finished; they are Sentry's, not the page's work.
    if (new URL(request.url()).pathname !== '/monitoring') pending.add(request);
  });
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
  return () => pending.size;
}

/** A page-data request's URL: the page's own address with the cache-busting parameter. */
export const PAGE_DATA_URL = new RegExp(`[?&]${PAGE_DATA_PARAM}=`);

/** The page a page-data request asks for (`/about` for `/about?_rsc=…`), or null. */
export function pageDataPathOf(url: string): string | null {
  const parsed = new URL(url);
  return parsed.searchParams.has(PAGE_DATA_PARAM) ? parsed.pathname : null;
}

/**
 * The page body's Markdown editor (CodeMirror, once the page has hydrated): it is a
 * contenteditable, not a text box, so Playwright's `inputValue()` and `toHaveValue` cannot read
 * it and `fill` would go through the DOM line by line. `fill`, `select` and `text` talk to the
 * editor's own state instead (what a person's typing ends in); `type` is real keystrokes.
 * The editor is reached through CodeMirror's own DOM-to-view link (`EditorView.findFromDOM`
 * reads the same `cmTile` property), kept here, in one place, for the tests.
 */
/** The body field, however the page shows it (bodyEditor). */
export type BodyField = {
  locator: Locator;
  ready: () => Promise<void>;
  text: () => Promise<string>;
  fill: (text: string) => Promise<void>;
  select: (anchor: number, head?: number) => Promise<void>;
  typeAtEnd: (text: string) => Promise<void>;
  expectText: (expected: string | RegExp) => Promise<void>;
};

export function bodyEditor(
  page: Page,
  { javaScript = true }: { javaScript?: boolean } = {},
): BodyField {
  const content = page.getByLabel('Body (Markdown)');
  if (!javaScript) return plainBody(page);
  type View = {
    state: { doc: { length: number; toString(): string } };
    dispatch: (spec: unknown) => void;
    focus: () => void;
  };
  const withView = async <A, R>(fn: (view: View, arg: A) => R, arg: A): Promise<R> => {
    const element = page.locator('.body-codemirror .cm-content');
    await expect(element).toBeVisible();
    const view = await element.evaluateHandle((node) => {
      const tile = (node as unknown as { cmTile?: { root?: { view?: View } } }).cmTile;
      if (!tile?.root?.view) throw new Error('no CodeMirror view on .cm-content');
      return tile.root.view;
    });
    try {
      return (await view.evaluate(fn as never, arg as never)) as R;
    } finally {
      await view.dispose();
    }
  };
  const editor: BodyField = {
    /** The content element (labelled "Body (Markdown)"). */
    locator: content,
    /** Waits for the editor to replace the plain text box. */
    ready: () => expect(page.locator('.body-codemirror .cm-content')).toBeVisible(),
    text: () => withView((view) => view.state.doc.toString(), null),
    /** Replaces the whole text, as typing would (the page's state follows). */
    fill: (text: string) =>
      withView((view, value) => {
        view.focus();
        view.dispatch({
          changes: { from: 0, to: view.state.doc.length, insert: value },
          selection: { anchor: value.length },
          userEvent: 'input.type',
        });
      }, text),
    /** Puts the selection (or caret) at these offsets, with the editor focused. */
    select: (anchor: number, head = anchor) =>
      withView(
        (view, [a, h]) => {
          view.focus();
          view.dispatch({ selection: { anchor: a, head: h } });
        },
        [anchor, head] as const,
      ),
    /** Real keystrokes at the end of the text. */
    typeAtEnd: async (text: string) => {
      const length = await editor.text().then((t) => t.length);
      await editor.select(length);
      await page.keyboard.type(text);
    },
    /** Waits until the editor's text is (or matches) this. */
    expectText: async (expected: string | RegExp) => {
      if (typeof expected === 'string') await expect.poll(editor.text).toBe(expected);
      else await expect.poll(editor.text).toMatch(expected);
    },
  };
  return editor;
}

/** The same, for a page without JavaScript: the plain text box the server renders. */
function plainBody(page: Page): BodyField {
  const area = page.locator('textarea#editor-body');
  const plain: BodyField = {
    locator: area,
    ready: () => expect(area).toBeVisible(),
    text: () => area.inputValue(),
    fill: (text: string) => area.fill(text),
    select: (anchor: number, head = anchor) =>
      area.evaluate(
        (node: HTMLTextAreaElement, [a, h]) => {
          node.focus();
          node.setSelectionRange(Math.min(a, h), Math.max(a, h));
        },
        [anchor, head] as const,
      ),
    typeAtEnd: async (text: string) => {
      await plain.select((await area.inputValue()).length);
      await page.keyboard.type(text);
    },
    expectText: (expected: string | RegExp) => expect(area).toHaveValue(expected),
  };
  return plain;
}

/**
 * Keeps this page off the page's shared document (decision record 0051): its live socket is
 * closed before it syncs, so the editor saves as it does without co-editing (a dev server, a
 * proxy without WebSockets) — the form's body, its autosave, its merges and conflicts, which
 * the tests calling this are about. tests/e2e/coedit.spec.ts checks this fallback too.
 */
export async function withoutCoediting(page: Page): Promise<void> {
  await page.routeWebSocket(/\/preview\/[^?]+\?live$/, (socket) =>
    socket.close({ code: 1011, reason: 'co-editing is off in this test' }),
  );
}
