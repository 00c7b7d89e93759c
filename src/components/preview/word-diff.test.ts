import { describe, expect, test } from 'bun:test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ParagraphDiff, WordDiff } from './word-diff';

const html = (element: Parameters<typeof renderToStaticMarkup>[0]) => renderToStaticMarkup(element);

describe('diffs', () => {
  test('a line mostly alike is marked word by word', () => {
    expect(
      html(createElement(WordDiff, { before: 'Ferry times.', after: 'Ferry times, summer.' })),
    ).toBe('<span>Ferry times</span><ins>, summer</ins><span>.</span>');
  });

  test('two different sentences are one replaced by the other, never interleaved', () => {
    const out = html(
      createElement(WordDiff, {
        before: 'Tab A adds the ferry office phone number.',
        after: 'Tab B adds the opening hours.',
      }),
    );
    expect(out).toBe(
      '<del>Tab A adds the ferry office phone number.</del><ins>Tab B adds the opening hours.</ins>',
    );
  });

  test('a 5 000-paragraph page with one change: folded around it, at its first change', () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `Paragraph ${i}.`);
    const before = lines.join('\n\n');
    const after = lines.map((l, i) => (i === 2_500 ? 'Paragraph 2500, changed.' : l)).join('\n\n');
    const started = performance.now();
    const out = html(createElement(ParagraphDiff, { before, after, firstId: 'first-change' }));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(out).toContain('… 2500 unchanged paragraphs …');
    expect(out).toContain('… 2499 unchanged paragraphs …');
    expect(out).toContain(
      '<span id="first-change"><span><span>Paragraph 2500</span><ins>, changed</ins>',
    );
    // Everything folded is there, in <details> (opened without JavaScript).
    expect(out.match(/<details/g)).toHaveLength(2);
    expect(out).toContain('Paragraph 4999.');
  });
});
