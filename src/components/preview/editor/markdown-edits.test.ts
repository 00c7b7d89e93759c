// The edits the body's toolbar, link dialog and image upload make (markdown-edits.ts), applied
// to plain text: what goes where, and what is selected after.
import { describe, expect, test } from 'bun:test';
import {
  type Edit,
  imageEdit,
  LINK_PLACEHOLDER,
  linkEdit,
  WRAPS,
  wrapEdit,
} from './markdown-edits';

function applied(text: string, edit: Edit) {
  const next = `${text.slice(0, edit.from)}${edit.insert}${text.slice(edit.to)}`;
  const [from, to] = [Math.min(edit.anchor, edit.head), Math.max(edit.anchor, edit.head)];
  return { text: next, selected: next.slice(from, to), caret: edit.head };
}

describe('wrapEdit', () => {
  test('marks around the selection, caret after it', () => {
    const out = applied('one two three', wrapEdit('one two three', 4, 7, WRAPS.bold));
    expect(out.text).toBe('one **two** three');
    expect(out.selected).toBe('');
    expect(out.caret).toBe(9);
  });
  test('nothing selected: the placeholder, selected to type over', () => {
    const out = applied('one ', wrapEdit('one ', 4, 4, WRAPS.italic));
    expect(out.text).toBe('one _italic text_');
    expect(out.selected).toBe('italic text');
  });
  test('a line mark goes at the start of the selection’s line', () => {
    const text = 'First.\nSecond line.';
    expect(applied(text, wrapEdit(text, 10, 14, WRAPS.heading)).text).toBe(
      'First.\n## Second line.',
    );
    expect(applied(text, wrapEdit(text, 0, 0, WRAPS.quote)).text).toBe('> First.\nSecond line.');
    const lines = 'a\nb\n\nc';
    expect(applied(lines, wrapEdit(lines, 0, 6, WRAPS.list)).text).toBe('- a\n- b\n\n- c');
    const empty = applied('a\n', wrapEdit('a\n', 2, 2, WRAPS.list));
    expect(empty.text).toBe('a\n- item');
    expect(empty.selected).toBe('item');
  });
  test('emoji and right-to-left text are kept whole', () => {
    const text = 'שלום 👋🏽 world';
    const out = applied(text, wrapEdit(text, 0, 4, WRAPS.bold));
    expect(out.text).toBe('**שלום** 👋🏽 world');
  });
});

describe('imageEdit', () => {
  const md = '![Alt](/media/abc)';
  test('a paragraph of its own after the caret’s line, never inside a word', () => {
    const text = 'First paragraph.\n\nLast paragraph.';
    expect(applied(text, imageEdit(text, 3, md)).text).toBe(
      `First paragraph.\n\n${md}\n\nLast paragraph.`,
    );
    expect(applied(text, imageEdit(text, 0, md)).text).toBe(
      `${md}\n\nFirst paragraph.\n\nLast paragraph.`,
    );
  });
  test('the caret never placed: at the end', () => {
    expect(applied('Text.', imageEdit('Text.', null, md)).text).toBe(`Text.\n\n${md}\n`);
    expect(applied('', imageEdit('', null, md)).text).toBe(`${md}\n`);
  });
});

describe('linkEdit', () => {
  test('the selection becomes the link’s text, caret after it', () => {
    const out = applied('See the boats.', linkEdit('See the boats.', 4, 13, '/ferry', 'Ferry'));
    expect(out.text).toBe('See [the boats](/ferry).');
    expect(out.caret).toBe(23);
  });
  test('nothing selected: the page’s title, or a placeholder selected', () => {
    expect(applied('', linkEdit('', 0, 0, '/ferry', 'Ferry [times]')).text).toBe(
      '[Ferry \\[times\\]](/ferry)',
    );
    const out = applied('', linkEdit('', 0, 0, 'https://example.org', LINK_PLACEHOLDER));
    expect(out.text).toBe('[link text](https://example.org)');
    expect(out.selected).toBe('link text');
  });
  test('an address with spaces or brackets cannot end the link early', () => {
    expect(applied('x', linkEdit('x', 0, 1, 'https://e.org/a (b)', '')).text).toBe(
      '[x](https://e.org/a%20%28b%29)',
    );
  });
});
