// Owns the plain text visitors' search indexes for a published page: its rendered HTML without
// tags, entities decoded, so neither Markdown syntax nor HTML names ("strong", "href") are
// searchable and the snippets shown are the words a reader saw (issue 27). Computed once per
// publish from the draft's HTML and kept on the revision (`search_text`, migration 15).
import 'server-only';
import { withoutDirectives } from './listing-directive';

// Elements that end a word where they start or end (a paragraph, a cell, a line break): their
// tags become a space. Every other tag (emphasis, links, highlighting spans) is dropped whole,
// so "un<em>usual</em>" stays one word.
const BLOCK_TAG =
  /<\/?(?:p|div|h[1-6]|li|ul|ol|dl|dt|dd|pre|blockquote|table|thead|tbody|tr|td|th|br|hr|figure|figcaption|img|section|details|summary)\b[^>]*>/gi;
const ANY_TAG = /<[^>]*>/g;
// Code a reader does not read as text: scripts and styles never reach a page (the renderer
// escapes them), but a comment might.
const COMMENT = /<!--[\s\S]*?-->/g;
const ENTITY = /&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos|nbsp);/gi;
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};
// Control characters carry no text, and U+0002/U+0003 mark highlights in search snippets
// (public-search.ts): page text must never contain them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

function decodeEntity(whole: string, name: string): string {
  const lower = name.toLowerCase();
  if (lower.startsWith('#')) {
    const code = lower.startsWith('#x')
      ? Number.parseInt(lower.slice(2), 16)
      : Number.parseInt(lower.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  }
  return NAMED[lower] ?? whole;
}

/** The words of a page's rendered HTML, one space between them. */
export function searchTextOfHtml(html: string): string {
  return withoutDirectives(html)
    .replace(COMMENT, ' ')
    .replace(BLOCK_TAG, ' ')
    .replace(ANY_TAG, '')
    .replace(ENTITY, decodeEntity)
    .replace(CONTROLS, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toWellFormed();
}
