import { describe, expect, test } from 'bun:test';
import type { EditorFormValues } from '../../../lib/editor/forms';
import { sameText } from './editor-text';

const values = (fields: Partial<EditorFormValues>): EditorFormValues => ({
  slug: 'page',
  originalSlug: 'page',
  pageId: '1',
  version: '1',
  title: 'Title',
  summary: '',
  body: 'Body.',
  kind: 'post',
  topics: '',
  authors: '',
  ...fields,
});

describe('sameText: what saving drops is no change (issue 26, hostile pass)', () => {
  test('the text the server kept after cleaning is the same as what was typed', () => {
    const pairs: [Partial<EditorFormValues>, Partial<EditorFormValues>][] = [
      [{ body: 'form\u000cfeed' }, { body: 'formfeed' }],
      [{ body: 'nul\u0000 and bell\u0007' }, { body: 'nul and bell' }],
      [{ body: 'half \ud83d an emoji' }, { body: 'half \ufffd an emoji' }],
      [{ body: 'windows\r\nline' }, { body: 'windows\nline' }],
      [{ title: 'Zero\u200bwidth title' }, { title: 'Zerowidth title' }],
      [{ title: 'Trailing space ' }, { title: 'Trailing space' }],
      [{ summary: 'A \u202eturned summary ' }, { summary: 'A turned summary' }],
      [{ slug: 'zero\u200bwidth' }, { slug: 'zerowidth' }],
    ];
    for (const [typed, kept] of pairs) expect(sameText(values(typed), values(kept))).toBe(true);
  });

  test('a real change is still a change', () => {
    expect(sameText(values({ body: 'one' }), values({ body: 'two' }))).toBe(false);
    expect(sameText(values({ body: 'emoji 😀' }), values({ body: 'emoji \ufffd' }))).toBe(false);
    // A body keeps its zero-width and direction characters (Persian, emoji): they are text.
    expect(sameText(values({ body: 'a\u200cb' }), values({ body: 'ab' }))).toBe(false);
    expect(sameText(values({ body: 'space ' }), values({ body: 'space' }))).toBe(false);
    expect(sameText(values({ title: 'A' }), values({ title: 'B' }))).toBe(false);
  });
});
