import { describe, expect, test } from 'bun:test';
import { renderMarkdown } from '../markdown/markdown';
import {
  hasListingDirective,
  parseDirectiveArguments,
  splitAtDirectives,
} from './listing-directive';

describe('the listing directive', () => {
  test('is a paragraph of its own as Markdown renders it; anything else is text', async () => {
    const html = await renderMarkdown(
      'Intro.\n\n{{ posts topic=cooking limit=3 }}\n\nAfter `{{ posts }}` in code.\n\n{{posts}}\n',
      { media: new Map() },
    );
    expect(hasListingDirective(html)).toBe(true);
    const parts = splitAtDirectives(html);
    expect(parts.filter((part) => 'directive' in part)).toEqual([
      {
        directive: { topic: 'cooking', author: null, limit: 3 },
        source: '{{ posts topic=cooking limit=3 }}',
      },
      { directive: { topic: null, author: null, limit: 5 }, source: '{{posts}}' },
    ]);
    // The text around them is kept whole, in order.
    expect(
      parts.map((part) => ('html' in part ? part.html : `[${part.source}]`)).join(''),
    ).toContain('<p>Intro.</p>');
    expect(hasListingDirective('<p>{{ postscript }}</p>')).toBe(false);
    expect(
      hasListingDirective(await renderMarkdown('Say {{ posts }} inline.', { media: new Map() })),
    ).toBe(false);
  });

  test('bad arguments are a problem in words, never a throw', () => {
    for (const [text, words] of [
      ['limit=0', 'from 1 to 20'],
      ['limit=21', 'from 1 to 20'],
      ['limit=abc', 'from 1 to 20'],
      ['topic=../etc', 'not a topic'],
      ['author=../etc', 'not an author'],
      ['topic=a author=b', 'not both'],
      ['colour=red', 'not something a listing takes'],
      ['topic', 'not name=value'],
      ['a=b=c', 'not name=value'],
      // Hostile pass 27, 11: the last one won, silently.
      ['topic=a topic=b', 'topic is given twice'],
      ['limit=2 limit=3', 'limit is given twice'],
      ['author=a limit=2 author=a', 'author is given twice'],
      ['colour=red colour=red', 'not something a listing takes'],
    ] as const) {
      const parsed = parseDirectiveArguments(text);
      expect('problem' in parsed && parsed.problem, text).toContain(words);
    }
    expect(parseDirectiveArguments('author=ada limit=2')).toEqual({
      topic: null,
      author: 'ada',
      limit: 2,
    });
    const many = Array.from({ length: 7 }, () => '<p>{{ posts }}</p>').join('\n');
    expect(splitAtDirectives(many).filter((part) => 'problem' in part)).toHaveLength(2);
  });
});

// Hostile pass of issue 27: the stored HTML's `&quot;` was shown as `&quot;` (escaped twice).
test('a directive’s words are shown as typed, not as the stored HTML escaped them', () => {
  const [part] = splitAtDirectives('<p>{{ posts topic=&quot;gardening&quot; }}</p>');
  expect(part).toEqual({
    problem: '“"gardening"” is not a topic\'s address.',
    source: '{{ posts topic="gardening" }}',
  });
});
