import { expect, test } from 'bun:test';
import { searchTextOfHtml } from './public-search-text';

// What visitors' search indexes of a page (issue 27): the words a reader sees.
test('tags go, block ends separate words, inline tags do not, entities are decoded', () => {
  expect(
    searchTextOfHtml(
      '<h2 id="x">Title</h2><p>Some <strong>bold</strong> and un<em>usual</em> <a href="https://example.com/hidden">link</a>.</p><ul><li>one</li><li>two</li></ul><p>&lt;script&gt; &amp; caf&#xE9; &#233;t&eacute;</p><!-- note -->',
    ),
  ).toBe('Title Some bold and unusual link. one two <script> & café ét&eacute;');
});

test('control characters (the snippet markers among them) never reach the index', () => {
  expect(searchTextOfHtml('<p>a\u0002b\u0003c\u0000d</p>')).toBe('a b c d');
});

// Hostile pass of issue 27: a listing directive's line is not text a visitor reads, and its
// arguments (a draft topic's address) must not reach search snippets.
test('a listing directive’s line is left out of the indexed text', () => {
  expect(
    searchTextOfHtml('<p>Before.</p>\n<p>{{ posts topic=zebrasecret limit=3 }}</p>\n<p>After.</p>'),
  ).toBe('Before. After.');
});
