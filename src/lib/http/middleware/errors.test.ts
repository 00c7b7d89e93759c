import { describe, expect, test } from 'bun:test';
import { HTTPException } from 'hono/http-exception';
import { expectConsoleErrors } from '../../../../tests/console-guard';
import { requestLevelApp } from '../../../../tests/request-level';
import { STALE_PAGE_MESSAGE } from '../../observability/request-errors';
import { actions } from './actions';
import { errorPages } from './errors';

const wakuError = (status: number) =>
  Object.assign(new Error('refused'), {
    digest: `__WAKU_CUSTOM_ERROR__;${JSON.stringify({ status })}`,
  });

function appThrowing(error: unknown) {
  return requestLevelApp([errorPages], () => {
    throw error;
  });
}

const html = { accept: 'text/html' };

describe('errorPages', () => {
  test('a thrown bug on a page: the fallback page, its digest in a header, one log line', async () => {
    const errors = expectConsoleErrors();
    const response = await appThrowing(new Error('database exploded'))('/about', { headers: html });
    expect(response.status).toBe(500);
    const page = await response.text();
    const digest = response.headers.get('x-error-digest') ?? '';
    expect(digest).toMatch(/^[0-9a-f]{32}$/);
    expect(page).toContain(
      'Application error: a server-side exception has occurred while loading folio.test (see the server logs for more information).',
    );
    expect(page).toContain(`Digest: ${digest}`);
    expect(page).not.toContain('database exploded');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const lines = errors.lines().filter((line) => line.includes('"unexpected error"'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(digest);
    expect(lines[0]).toContain('database exploded');
  });

  test('a bug behind page data or an action: plain text with the digest, never a page', async () => {
    expectConsoleErrors();
    const response = await appThrowing(new Error('boom'))('/RSC/R/about.txt');
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toStartWith('text/plain');
    expect(await response.text()).toBe('Internal Server Error\n');
    expect(response.headers.get('x-error-digest')).toMatch(/^[0-9a-f]{32}$/);
  });

  test('the site name on the fallback page is SITE_URL, not whatever the Host said', async () => {
    expectConsoleErrors();
    const app = requestLevelApp(
      [errorPages],
      () => {
        throw new Error('x');
      },
      { siteUrl: 'https://folio.example' },
    );
    const response = await app('http://evil.example/about', { headers: html });
    expect(await response.text()).toContain('while loading folio.example');
  });

  test('errors caused by the request get a 4xx and are not reported', async () => {
    const cases: [unknown, number][] = [
      [wakuError(403), 403],
      [wakuError(405), 405],
      [new Error("server reference not found '0000'"), 409],
      [new SyntaxError('JSON Parse error'), 400],
      [new HTTPException(413, { res: new Response('too big', { status: 413 }) }), 413],
    ];
    for (const [error, status] of cases) {
      const response = await appThrowing(error)('/preview/about', {
        method: 'POST',
        headers: html,
      });
      expect(response.status, String(error)).toBe(status);
      expect(response.headers.get('x-error-digest')).toBeNull();
    }
    const stale = await appThrowing(new Error("server reference not found 'x'"))('/preview', {
      method: 'POST',
      headers: html,
    });
    expect(await stale.text()).toContain(STALE_PAGE_MESSAGE);
  });

  test('a 5xx without an error object still gets a digest and the fallback page', async () => {
    const errors = expectConsoleErrors();
    const app = requestLevelApp([errorPages], (c) => c.body('half a page', 502));
    const response = await app('/contact', { headers: html });
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('Digest: ');
    expect(errors.lines().join('\n')).toContain('HTTP 502 without a reported error');
  });

  test('a database out of reach or busy: 503 with Retry-After, and no digest', async () => {
    const errors = expectConsoleErrors();
    const unreachable = Object.assign(new Error('Failed to connect'), {
      code: 'ERR_POSTGRES_CONNECTION_REFUSED',
    });
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    for (const [error, words] of [
      [unreachable, 'cannot reach its database'],
      [busy, 'Folio is busy'],
    ] as const) {
      const response = await appThrowing(error)('/contact', { headers: html });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      expect(response.headers.get('x-error-digest')).toBeNull();
      expect(await response.text()).toContain(words);
    }
    // An outage is logged once a minute at most (a test before may already have), never once
    // per request; a busy database is a warning.
    await appThrowing(unreachable)('/about', { headers: html });
    await appThrowing(unreachable)('/contact', { headers: html });
    const said = errors.lines().join('\n');
    expect((said.match(/"database unavailable"/g) ?? []).length).toBeLessThanOrEqual(1);
    expect(said).toContain('"request refused"');
    expect(said).not.toContain('unexpected error');
  });

  test('a form posted without JavaScript that fails: the error page hands back what was typed', async () => {
    expectConsoleErrors();
    const form = new FormData();
    form.set('$ACTION_ID_0123456789ab#saveDraft', '');
    form.set('title', 'A <title> & more');
    form.set('body', 'Paragraph one.\n\nPARAGRAPH-TWO');
    form.set('password', 'never shown');
    const app = requestLevelApp(
      [
        errorPages,
        () =>
          actions({
            serverActions: {
              exists: async () => true,
              decodesAsArguments: async () => true,
              decodesAsFormAction: async () => true,
            },
          }),
      ],
      () => {
        throw Object.assign(new Error('Failed to connect'), {
          code: 'ERR_POSTGRES_CONNECTION_REFUSED',
        });
      },
    );
    const response = await app('/preview/about?edit', {
      method: 'POST',
      body: form,
      headers: { ...html, origin: 'http://folio.test' },
    });
    expect(response.status).toBe(503);
    const page = await response.text();
    expect(page).toContain('Nothing was saved.');
    expect(page).toContain('A &#60;title&#62; &#38; more');
    expect(page).toContain('PARAGRAPH-TWO');
    expect(page).not.toContain('never shown');
  });

  test('ordinary answers (a 404, a redirect) pass untouched', async () => {
    const notFound = requestLevelApp([errorPages], (c) => c.html('<h1>Page not found</h1>', 404));
    const missing = await notFound('/nope');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('<h1>Page not found</h1>');
    const redirect = requestLevelApp([errorPages], (c) => c.redirect('/elsewhere', 307));
    expect((await redirect('/about')).headers.get('location')).toBe('/elsewhere');
  });
});
