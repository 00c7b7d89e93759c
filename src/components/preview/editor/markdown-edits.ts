// Owns the Markdown the editor puts into the body other than by typing — a toolbar button's
// marks around the selection, a link, an uploaded image as a paragraph of its own — as plain
// edits (replace `from`–`to` with `insert`, then select `anchor`–`head`). The same edit is
// applied to the CodeMirror editor as one transaction (so Undo takes back exactly it) or to the
// plain text box before the editor has loaded.

/** Markdown a toolbar button puts around (or before) the selection. */
export type Wrap = { before: string; after: string; placeholder: string; line?: boolean };

/** The toolbar's Markdown, and Ctrl/Cmd+B and I's. */
export const WRAPS = {
  bold: { before: '**', after: '**', placeholder: 'bold text' },
  italic: { before: '_', after: '_', placeholder: 'italic text' },
  heading: { before: '## ', after: '', placeholder: 'Heading', line: true },
  list: { before: '- ', after: '', placeholder: 'item', line: true },
  quote: { before: '> ', after: '', placeholder: 'quotation', line: true },
  code: { before: '`', after: '`', placeholder: 'code' },
} as const satisfies Record<string, Wrap>;

/** One replacement in the body and the selection after it. */
export type Edit = { from: number; to: number; insert: string; anchor: number; head: number };

/**
 * Marks around the selection (or around a placeholder, left selected to type over); a `line`
 * mark (heading, list item, quote) goes at the start of the selection's line.
 */
export function wrapEdit(text: string, start: number, end: number, wrap: Wrap): Edit {
  const selected = text.slice(start, end);
  if (wrap.line) {
    // Every line the selection touches gets the mark (a list of three lines is three items);
    // lines with no text are left alone, and a selection on an empty line gets a placeholder.
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const nextBreak = text.indexOf('\n', end);
    const lineEnd = nextBreak === -1 ? text.length : nextBreak;
    const lines = text.slice(lineStart, lineEnd).split('\n');
    if (lines.every((line) => line.trim() === '')) {
      const insert = `${wrap.before}${wrap.placeholder}`;
      const caret = lineStart + insert.length;
      return {
        from: lineStart,
        to: lineEnd,
        insert,
        anchor: caret - wrap.placeholder.length,
        head: caret,
      };
    }
    const insert = lines
      .map((line) => (line.trim() === '' ? line : `${wrap.before}${line}`))
      .join('\n');
    const grown = insert.length - (lineEnd - lineStart);
    return {
      from: lineStart,
      to: lineEnd,
      insert,
      anchor: start + (lines[0]?.trim() === '' ? 0 : wrap.before.length),
      head: end + grown,
    };
  }
  const inner = selected || wrap.placeholder;
  const insert = `${wrap.before}${inner}${wrap.after}`;
  const innerStart = start + wrap.before.length;
  return {
    from: start,
    to: end,
    insert,
    anchor: selected ? innerStart + inner.length : innerStart,
    head: innerStart + inner.length,
  };
}

/**
 * Places an uploaded image's Markdown as a paragraph of its own, after the line `caret` is on
 * (the editor may have typed elsewhere meanwhile: never inside a word), or at the end when
 * `caret` is null (the editor has not been in the text box: an untouched caret sits at the top).
 */
export function imageEdit(text: string, caret: number | null, markdown: string): Edit {
  let at = Math.min(caret ?? text.length, text.length);
  if (at > 0 && text[at - 1] !== '\n') {
    const lineEnd = text.indexOf('\n', at);
    at = lineEnd === -1 ? text.length : lineEnd;
  }
  const before = text.slice(0, at);
  const after = text.slice(at);
  const lead =
    before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const trail =
    after === '' ? '\n' : after.startsWith('\n\n') ? '' : after.startsWith('\n') ? '\n' : '\n\n';
  const end = at + lead.length + markdown.length;
  return { from: at, to: at, insert: `${lead}${markdown}${trail}`, anchor: end, head: end };
}

/** Square brackets in a link's text would end it early. */
function linkText(text: string): string {
  return text.replace(/[[\]]/g, (mark) => `\\${mark}`);
}

/** Characters that would end a Markdown link destination early, escaped. */
export function linkDestination(url: string): string {
  return url
    .trim()
    .replace(/[()\s<>]/g, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c)));
}

/**
 * A link over the selection: `[selection](url)`; with nothing selected, `fallback` (a page's
 * title, or "link text" selected to type over) as its text.
 */
export function linkEdit(
  text: string,
  start: number,
  end: number,
  url: string,
  fallback: string,
): Edit {
  const selected = text.slice(start, end);
  const shown = selected ? selected : linkText(fallback);
  const insert = `[${shown}](${linkDestination(url)})`;
  const finish = start + insert.length;
  // A placeholder stays selected (to be typed over); real text leaves the caret after the link.
  return selected || fallback !== LINK_PLACEHOLDER
    ? { from: start, to: end, insert, anchor: finish, head: finish }
    : { from: start, to: end, insert, anchor: start + 1, head: start + 1 + shown.length };
}

export const LINK_PLACEHOLDER = 'link text';
