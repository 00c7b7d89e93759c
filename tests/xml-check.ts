// A strict enough check that a document Folio writes is well-formed XML (no XML parser ships
// with Bun): the declaration, one root, every element closed in order, attributes quoted, and
// no raw `<` or bare `&` in text. Returns the problem, or null.
const NAME = '[A-Za-z_][\\w.:-]*';
const TAG = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}="[^"<]*")*)\\s*(/?)>`);
const ENTITY = /^&(?:#[0-9]+|#x[0-9a-fA-F]+|amp|lt|gt|quot|apos);/;

export function xmlProblem(xml: string): string | null {
  const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
  if (!xml.toLowerCase().startsWith(declaration.toLowerCase())) return 'no XML declaration';
  const stack: string[] = [];
  let roots = 0;
  let at = declaration.length;
  while (at < xml.length) {
    if (xml[at] === '<') {
      const tag = TAG.exec(xml.slice(at, at + 4096));
      if (!tag) return `malformed tag at ${at}`;
      const [whole, closing, name = '', , selfClosing] = tag;
      if (closing) {
        if (stack.pop() !== name) return `</${name}> closes nothing open at ${at}`;
      } else {
        if (stack.length === 0) roots += 1;
        if (!selfClosing) stack.push(name);
      }
      at += whole.length;
    } else {
      const end = xml.indexOf('<', at);
      const text = xml.slice(at, end === -1 ? undefined : end);
      if (stack.length === 0 && text.trim() !== '') return `text outside the root at ${at}`;
      for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1))
        if (!ENTITY.test(text.slice(i, i + 12))) return `a bare & at ${at + i}`;
      at = end === -1 ? xml.length : end;
    }
  }
  if (stack.length > 0) return `<${stack.at(-1)}> never closed`;
  return roots === 1 ? null : `${roots} root elements`;
}
