// Owns escaping text for the XML Folio writes (the sitemap and the feed).

// XML 1.0 cannot carry some characters at all, escaped or not (§2.2): C0 controls other than
// tab, newline and return, U+FFFE/U+FFFF, and surrogates without their pair. A page may hold
// them (pasted text); they are left out rather than make the document unreadable to every reader.
function isXmlChar(codePoint: number): boolean {
  return (
    codePoint === 0x9 ||
    codePoint === 0xa ||
    codePoint === 0xd ||
    (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
    codePoint >= 0x10000
  );
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const MARKUP = /[<>&'"]/g;
const escapeChar = (ch: string) => `&#${ch.charCodeAt(0)};`;

/** Text for an XML element or attribute: markup escaped, characters XML cannot carry left out. */
export function escapeXml(text: string): string {
  // Printable ASCII (every address and date a sitemap holds) has nothing to leave out: the walk
  // below cost a 50 000-URL sitemap file half a second.
  if (PRINTABLE_ASCII.test(text)) return text.replace(MARKUP, escapeChar);
  let kept = '';
  // for…of walks code points: a paired surrogate arrives whole, a lone one alone.
  for (const ch of text) if (isXmlChar(ch.codePointAt(0) ?? 0)) kept += ch;
  return kept.replace(MARKUP, escapeChar);
}
