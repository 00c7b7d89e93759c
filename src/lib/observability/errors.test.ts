import { describe, expect, test } from 'bun:test';
import { expectConsoleErrors } from '../../../tests/console-guard';
import { currentRequestContext, runInRequestContext } from '../http/request-context';
import { onRenderError } from './errors';

function inRequest<T>(request: Request, work: () => T): T {
  const url = new URL(request.url);
  return runInRequestContext(
    {
      request,
      url,
      route: { kind: 'page', slug: 'about' },
      https: false,
      clientAddress: '127.0.0.1',
      origin: url.origin,
    },
    work,
  );
}

const ABORTED = 'The render was aborted by the server without a reason.';

describe('render errors', () => {
  // Seen in e2e runs: a page closed mid-upload was logged (and would be reported) as a bug.
  test('a render the client walked away from is no bug: nothing logged, nothing kept', () => {
    const client = new AbortController();
    const request = new Request('http://folio.test/about', { signal: client.signal });
    client.abort();
    const errors = expectConsoleErrors();
    const failed = inRequest(request, () => {
      onRenderError(new Error(ABORTED));
      return currentRequestContext()?.renderFailed;
    });
    expect(failed).toBe(true);
    expect(errors.lines()).toEqual([]);
  });

  test('the same error while the client still waits is reported, with a digest', () => {
    const request = new Request('http://folio.test/about');
    const errors = expectConsoleErrors();
    inRequest(request, () => onRenderError(new Error(ABORTED)));
    expect(errors.lines().join('\n')).toContain('"level":"error"');
  });
});
