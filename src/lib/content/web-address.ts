// Owns the one rule for "an absolute http(s) address" an editor types for another site (issue
// 27's hostile pass, finding 6): a page's canonical override (seo-fields.ts), a menu's external
// link (navigation-menus.ts), an author's profile links (authors.ts) and a redirect's target on
// another site (redirects.ts). `https:evil.com` (no slashes) parses as https://evil.com/ on its
// own, but in an <a href> or <link rel=canonical> a browser resolves it against the page's own
// address (a same-scheme relative reference): the site's /evil.com.
//
// Refused, not normalised: such an address is stored as typed and written into pages as typed,
// so the rule asks for the form every reader resolves alike — `http://` or `https://`, a host,
// no spaces, control characters or backslashes (which browsers drop or turn into slashes), no
// user name or password — and the editor keeps what they typed to correct it, with the reason.
// Browser-safe: the editor's forms import it.

export type WebAddressProblem =
  /** Not an address at all (`example.com`, `http://`). */
  | 'not-an-address'
  /** Another kind of address (`javascript:`, `ftp:`). */
  | 'scheme'
  /** http(s) without the `//` (`https:evil.com`, `https:/evil.com`): a relative reference in a page. */
  | 'no-slashes'
  /** Spaces, control characters or backslashes. */
  | 'characters'
  /** `https://user:pass@host`. */
  | 'credentials';

export type WebAddressCheck = { ok: true; url: URL } | { ok: false; problem: WebAddressProblem };

/** Whether `typed` (already trimmed) is an absolute http(s) address every browser reads alike. */
export function checkWebAddress(typed: string): WebAddressCheck {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u0020\u007f\\]/.test(typed)) return { ok: false, problem: 'characters' };
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return { ok: false, problem: 'not-an-address' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, problem: 'scheme' };
  if (!/^https?:\/\//i.test(typed)) return { ok: false, problem: 'no-slashes' };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'credentials' };
  if (url.hostname === '') return { ok: false, problem: 'not-an-address' };
  return { ok: true, url };
}

/** The refusal of an address written without its `//`, naming what to write instead. */
export function noSlashesMessage(typed: string): string {
  const shown = typed.length > 60 ? `${typed.slice(0, 57)}…` : typed;
  const fixed = typed.replace(/^(https?):[\\/]*/i, (_whole, scheme: string) => `${scheme}://`);
  const suggestion = fixed.length > 60 ? `${fixed.slice(0, 57)}…` : fixed;
  return `“${shown}” is not a whole address: write it with two slashes after the colon, as ${suggestion}`;
}
