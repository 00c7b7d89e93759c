import { describe, expect, test } from 'bun:test';
import { requestLevelApp } from '../../../../tests/request-level';
import { setDocumentStatus, setResponseCookie } from '../request-context';
import { responseContext } from './response-context';

describe('responseContext', () => {
  test('applies the cookies and the document status a page asked for', async () => {
    const app = requestLevelApp([responseContext], (c) => {
      setResponseCookie('a=1; Path=/');
      setResponseCookie('b=2; Path=/');
      setDocumentStatus(401);
      return c.html('<form>sign in</form>');
    });
    const response = await app('/preview');
    expect(response.status).toBe(401);
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(await response.text()).toBe('<form>sign in</form>');
    // Page data answers with its page's status too (the front door sets it once the render is
    // read whole: hostile pass 27, 10); the browser hands the payload to the router as a 200.
    expect((await app('/RSC/R/preview.txt')).status).toBe(401);
  });

  test('preview, signed-in and action responses are private and not indexed', async () => {
    const app = requestLevelApp([responseContext], (c) =>
      c.text('x', 200, { 'cache-control': 'public, max-age=60' }),
    );
    for (const [path, init] of [
      ['/preview/about', {}],
      ['/RSC/R/preview/about.txt', {}],
      ['/about', { headers: { cookie: 'folio_session=abc' } }],
      ['/about', { method: 'POST', body: 'x', headers: { origin: 'http://folio.test' } }],
    ] as [string, RequestInit][]) {
      const response = await app(path, init);
      expect(response.headers.get('cache-control'), path).toBe('private, no-store');
      expect(response.headers.get('x-robots-tag'), path).toBe('noindex');
    }
    const visitor = await app('/about');
    expect(visitor.headers.get('cache-control')).toBe('public, max-age=60');
    expect(visitor.headers.get('x-robots-tag')).toBeNull();
  });
});
