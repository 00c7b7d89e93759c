// What src/lib/waku/internals.ts assumes about Waku, checked against Waku itself: its own code
// (read from node_modules, the internals are not exported) and the server as the README starts
// it. After a Waku upgrade, this file says which assumption broke.
// test-engines: the SQLite half only — Waku's code and its answers are the same on either
// engine.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ACTION_PATH,
  actionIdOfPath,
  actionIdsOfForm,
  ETAGS_HEADER,
  HANDLER_FILE,
  HANDLER_PATCHES,
  isRouteRscPath,
  leavePageError,
  PRELOAD_ERROR_EVENT,
  pageDataPathOf,
  pagePathOfPageData,
  RENDER_ERROR_HOOK,
  WAKU_BOOTSTRAP_MARKER,
  wakuErrorInfo,
} from '../../src/lib/waku/internals';
import { formsIn } from '../forms';
import { type RunningFolio, startFolio } from '../harness';

const WAKU = path.dirname(Bun.resolveSync('waku/package.json', import.meta.dir));
const wakuFile = (file: string) => path.join(WAKU, 'dist', file);

let folio: RunningFolio;
beforeAll(async () => {
  folio = await startFolio();
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

describe("Waku's code, as waku-internals.ts patches and reads it", () => {
  test('the handler patch still finds what it replaces, and the build carries it', () => {
    const handler = wakuFile('lib/vite-rsc/handler.js');
    expect(HANDLER_FILE.test(handler)).toBe(true);
    const source = readFileSync(handler, 'utf8');
    for (const { find } of HANDLER_PATCHES) expect(source).toContain(find);
    const built = readdirSync(path.resolve('dist/server/assets')).some((name) =>
      readFileSync(path.resolve('dist/server/assets', name), 'utf8').includes(
        `globalThis.${RENDER_ERROR_HOOK}`,
      ),
    );
    expect(built).toBe(true);
  });

  test("control-flow digests: Waku's own errors read back, and our leave error is one", async () => {
    const { createCustomError, getErrorInfo } = (await import(
      wakuFile('lib/utils/custom-errors.js')
    )) as {
      createCustomError: (message: string, info: object) => unknown;
      getErrorInfo: (error: unknown) => unknown;
    };
    expect(wakuErrorInfo(createCustomError('Forbidden', { status: 403 }))).toEqual({ status: 403 });
    expect(wakuErrorInfo(new Error('plain'))).toBeNull();
    expect(getErrorInfo(leavePageError('/about'))).toEqual({
      location: '/about',
      unstable_leave: true,
    });
  });

  test('page-data and action addresses are shaped as Waku encodes them', async () => {
    const { encodeRoutePath } = (await import(
      wakuFile('router/isomorphic-utils/route-path.js')
    )) as {
      encodeRoutePath: (path: string) => string;
    };
    const { encodeRscPath, encodeFuncId, decodeFuncId, decodeRscPath } = (await import(
      wakuFile('lib/utils/rsc-path.js')
    )) as {
      encodeRscPath: (path: string) => string;
      encodeFuncId: (id: string) => string;
      decodeFuncId: (encoded: string) => string | null;
      decodeRscPath: (path: string) => string;
    };
    // Every action address reads as Waku reads it, odd ones included.
    for (const address of [
      '/RSC/F/abc/def.txt',
      '/RSC/F/abc/.txt',
      '/RSC/F/_abc/.txt',
      '/RSC/F/a/b/c.txt',
    ])
      expect(actionIdOfPath(address), address).toBe(
        decodeFuncId(decodeRscPath(address.slice('/RSC/'.length))),
      );
    for (const page of ['/', '/about', '/preview', '/preview/about']) {
      const address = `/RSC/${encodeRscPath(encodeRoutePath(page))}`;
      expect(pageDataPathOf(page)).toBe(address);
      expect(pagePathOfPageData(address)).toBe(page);
      expect(isRouteRscPath(encodeRoutePath(page))).toBe(true);
    }
    const action = `/RSC/${encodeRscPath(encodeFuncId('a662092daa3a#signIn'))}`;
    expect(ACTION_PATH.test(action)).toBe(true);
    expect(actionIdOfPath(action)).toBe('a662092daa3a#signIn');
  });

  test("the etags header is Waku's", async () => {
    const { ETAGS_HEADER: waku } = (await import(wakuFile('lib/utils/etags.js'))) as {
      ETAGS_HEADER: string;
    };
    expect(ETAGS_HEADER).toBe(waku.toLowerCase());
  });
});

describe('what the running build sends', () => {
  test('forms without JavaScript name their action the way actionIdsOfForm reads it', async () => {
    const html = await (await fetch(`${folio.url}/preview`)).text();
    const [form] = await formsIn(html);
    const fields = new FormData();
    for (const [name, value] of form?.fields ?? []) fields.append(name, value);
    const ids = actionIdsOfForm(fields);
    expect(ids).toHaveLength(1);
    expect((ids as string[])[0]).toMatch(/^[0-9a-f]+#signIn$/);
  });

  test("the page's bootstrap listens for the preload event and marks server rendering", async () => {
    const html = await (await fetch(`${folio.url}/about`)).text();
    expect(html).toContain(`addEventListener('${PRELOAD_ERROR_EVENT}'`);
    expect(html).toContain('globalThis.__WAKU_HYDRATE__ = true');
    // hydrate-after-paint.ts found the bootstrap and its entry import, and took the preloads.
    expect(html).toContain(WAKU_BOOTSTRAP_MARKER);
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toMatch(
      /\.forEach\(function\(h\)\{[\s\S]*?return import\("\/assets\/index-[\w-]+\.js"\);\}\)\.catch\(/,
    );
  });

  test('page data for a page is served at the address pageDataPathOf gives', async () => {
    const response = await fetch(`${folio.url}${pageDataPathOf('/about')}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"ROUTE":["/about",""]');
  });
});
