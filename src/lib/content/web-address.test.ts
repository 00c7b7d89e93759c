// The one rule for another site's address (issue 27's hostile pass, finding 6), on its own and
// in each field that takes one: a canonical override, a menu link, an author's links, a
// redirect's target. The hostile pass's `https:evil.com` was taken by the first three as typed.
import { describe, expect, test } from 'bun:test';
import { authorSchema } from './authors';
import { linkProblem } from './navigation-menus';
import { checkRedirect } from './redirects';
import { canonicalProblem } from './seo-fields';
import { checkWebAddress, noSlashesMessage } from './web-address';

const SLASHLESS = ['https:evil.com', 'HTTPS:evil.com/x', 'https:/evil.com', 'http:evil.com'];

describe('an absolute http(s) address', () => {
  test('whole addresses are taken, as typed', () => {
    for (const typed of [
      'https://example.com',
      'HTTPS://Example.com/a?b=c#d',
      'http://example.org:8080/',
    ]) {
      const checked = checkWebAddress(typed);
      expect(checked.ok, typed).toBe(true);
    }
  });

  test('without its slashes, with spaces or backslashes, credentials or another scheme: refused', () => {
    for (const typed of SLASHLESS)
      expect(checkWebAddress(typed), typed).toEqual({ ok: false, problem: 'no-slashes' });
    for (const [typed, problem] of [
      ['https://exa mple.com', 'characters'],
      ['https:\\\\evil.com', 'characters'],
      ['https://evil.com/\tx', 'characters'],
      ['https://user:pw@example.com/', 'credentials'],
      ['javascript:alert(1)', 'scheme'],
      ['ftp://example.com/', 'scheme'],
      ['example.com', 'not-an-address'],
      ['https://', 'not-an-address'],
    ] as const)
      expect(checkWebAddress(typed), typed).toEqual({ ok: false, problem });
  });

  test('the refusal names the address to write instead', () => {
    expect(noSlashesMessage('https:evil.com')).toBe(
      '“https:evil.com” is not a whole address: write it with two slashes after the colon, as https://evil.com',
    );
    expect(noSlashesMessage('HTTP:/evil.com/x')).toContain('as HTTP://evil.com/x');
  });

  test('every field that takes one refuses them alike', () => {
    for (const typed of SLASHLESS) {
      const words = noSlashesMessage(typed);
      expect(canonicalProblem(typed), typed).toBe(words);
      expect(linkProblem(typed), typed).toBe(words);
      const author = authorSchema.safeParse({
        name: 'Ada',
        slug: 'ada',
        bio: '',
        photo: '',
        links: typed,
      });
      expect(author.success ? '' : author.error.issues[0]?.message, typed).toBe(words);
      expect(checkRedirect({ from: '/x', to: typed, status: 301 }), typed).toEqual({
        ok: false,
        field: 'to',
        message: words,
      });
    }
  });
});

// Finding 9: `/about?x=1#y` was saved as `/about` with no word.
describe('a redirect to a page of this site', () => {
  test('a query or a fragment is refused in words, never cut off', () => {
    for (const to of ['/about?x=1#y', '/about?x=1', '/about#team', '/About/?q'])
      expect(checkRedirect({ from: '/x', to, status: 301 }), to).toMatchObject({
        ok: false,
        field: 'to',
        message: expect.stringContaining('has a query (?) or fragment (#)'),
      });
    expect(checkRedirect({ from: '/x', to: '/About/?q', status: 301 })).toMatchObject({
      message: expect.stringContaining('such as /about.'),
    });
    expect(checkRedirect({ from: '/x', to: '/about', status: 301 })).toMatchObject({ ok: true });
  });
});
