// The text of a paste that carries only HTML. A word processor or a browser puts plain text on
// the clipboard beside its HTML, and the editor takes that (a Markdown editor keeps the writer's
// own marks, not a word processor's styles). Some web apps put HTML alone; CodeMirror then
// pastes nothing, and what the writer copied is lost. This reads the HTML's text instead, each
// block on lines of its own so paragraphs stay paragraphs.

/** Elements whose text is a block of its own: a blank line after each. */
const PARAGRAPH = new Set([
  'P',
  'DIV',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'BLOCKQUOTE',
  'PRE',
  'UL',
  'OL',
  'TABLE',
  'SECTION',
  'ARTICLE',
  'HEADER',
  'FOOTER',
  'FIGURE',
  'HR',
]);
/** Elements whose text ends a line, not a paragraph. */
const LINE = new Set(['LI', 'TR', 'DT', 'DD']);
/** Elements with no text a writer copied. */
const SKIPPED = new Set(['STYLE', 'SCRIPT', 'TEMPLATE', 'NOSCRIPT', 'HEAD', 'TITLE']);

export function pastedHtmlText(html: string): string {
  const document = new DOMParser().parseFromString(html, 'text/html');
  let text = '';
  const walk = (node: Node, preformatted: boolean) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const value = node.nodeValue ?? '';
      text += preformatted ? value : value.replace(/\s+/g, ' ');
      return;
    }
    if (!(node instanceof Element) || SKIPPED.has(node.tagName)) return;
    if (node.tagName === 'BR') {
      text += '\n';
      return;
    }
    for (const child of node.childNodes) walk(child, preformatted || node.tagName === 'PRE');
    if (PARAGRAPH.has(node.tagName)) text += '\n\n';
    else if (LINE.has(node.tagName)) text += '\n';
  };
  walk(document.body, false);
  return text
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
