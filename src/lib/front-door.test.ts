import { describe, expect, test } from 'bun:test';
import { refuseUrl, withFrontDoor } from './front-door';

describe('front door', () => {
  test('refuses NUL bytes, encoded traversal and over-long URLs; lets the rest through', () => {
    expect(refuseUrl('http://h/%00')).toEqual({ status: 404 });
    expect(refuseUrl('http://h/a%2Fb')).toEqual({ status: 404 });
    expect(refuseUrl('http://h/%2e%2e/x')).toEqual({ status: 404 });
    expect(refuseUrl(`http://h/${'a'.repeat(9000)}`)).toEqual({ status: 414 });
    expect(refuseUrl(`http://h/x/${'a'.repeat(5000)}`)).toEqual({ status: 404 });
    expect(refuseUrl('http://h/about?q=%00')).toBeNull();
    expect(refuseUrl('http://h/about')).toBeNull();
  });

  test('adds the base headers to every response, even immutable ones', async () => {
    const handler = withFrontDoor(async (_request: Request) => {
      const response = await fetch('data:text/plain,hi');
      return response;
    });
    const response = await handler(new Request('http://h/x'));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('hi');
    const refused = await handler(new Request('http://h/%00'));
    expect(refused.status).toBe(404);
    expect(refused.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('security headers', () => {
  test('every response gets the CSP and friends; HSTS only over HTTPS', async () => {
    const handler = withFrontDoor(async (_request: Request) => new Response('ok'));
    const plain = await handler(new Request('http://h/'));
    expect(plain.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(plain.headers.get('permissions-policy')).toContain('camera=()');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const proxied = await handler(
      new Request('http://h/', { headers: { 'x-forwarded-proto': 'https' } }),
    );
    expect(proxied.headers.get('strict-transport-security')).toContain('max-age=');
  });
});
