// Owns what a visitor's `/?q=` and `&page=` mean (issue 27): the search language — words that
// must all match, "quoted phrases", the last word also as a prefix — its limits, and how it is
// written for each engine's full-text syntax. Only letters, digits and the marks inside a word
// ever reach FTS5 or to_tsquery, each quoted: nothing a visitor types is query syntax.
// Also how the engines' highlight markers become text segments. Pure (no server-only import):
// tests and any side may use it.
import type { Engine } from '../data/db';

/** Characters of `q` read; the rest is ignored and the visitor told. */
export const SEARCH_TEXT_MAX = 200;
/** Words searched for (each is one index lookup); the rest are ignored and the visitor told. */
export const SEARCH_WORDS_MAX = 20;
/** A longer "word" is cut here: no language has one, and it bounds the prefix expansion. */
export const SEARCH_WORD_LENGTH_MAX = 60;
/** The last word matches as a prefix from this length ("pub" finds "publishing"). */
export const PREFIX_MIN = 3;
/** Results on one page of results. */
export const RESULTS_PER_PAGE = 10;
/** Pages of results a visitor can ask for: the offset stays bounded (100 results). */
export const RESULT_PAGES_MAX = 10;

/** One thing every result must contain: a word, or a phrase (words in this order). */
export type SearchTerm = { words: string[]; phrase: boolean; prefix: boolean };

export type ParsedSearch = {
  /** What the search box shows back: the text read, cleaned. */
  text: string;
  terms: SearchTerm[];
  /** Why part of the text was not searched, if it was not. */
  cut: 'length' | 'words' | null;
};

// Every control character (NUL included) separates words; it never reaches the box or SQL.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const QUOTES = /["\u201c\u201d\u201e\u00ab\u00bb]/;
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

/**
 * The words of a stretch of text, as both engines index them: lower case, Latin letters
 * without their accents ("İstanbul" lower-cased is "i" + a combining dot, which would split
 * the word), other scripts' marks kept (a Devanagari vowel sign is part of its word).
 */
function wordsOf(text: string): string[] {
  const plain = text
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase();
  return (plain.match(WORD) ?? []).map((word) =>
    Array.from(word).slice(0, SEARCH_WORD_LENGTH_MAX).join(''),
  );
}

/**
 * What a search box shows of `q`: at most SEARCH_TEXT_MAX characters, controls (NUL included)
 * as spaces, no lone surrogates; and whether anything was cut. The header's box (a client
 * component) uses it too, so it never shows what the results page does not.
 */
export function searchBoxText(raw: string | null): { text: string; cut: boolean } {
  // Twice the limit in UTF-16 units covers SEARCH_TEXT_MAX code points of any plane.
  const head = (raw ?? '').slice(0, SEARCH_TEXT_MAX * 2 + 2).toWellFormed();
  const points = Array.from(head.replace(CONTROLS, ' '));
  return {
    text: points.slice(0, SEARCH_TEXT_MAX).join('').replace(/\s+/g, ' ').trim(),
    cut: points.length > SEARCH_TEXT_MAX || (raw ?? '').length > head.length,
  };
}

/** Reads a visitor's `q`: never throws, whatever it holds. */
export function parseSearch(raw: string | null): ParsedSearch {
  const box = searchBoxText(raw);
  const text = box.text;
  let cut: ParsedSearch['cut'] = box.cut ? 'length' : null;

  const terms: SearchTerm[] = [];
  let counted = 0;
  // A word or phrase asked for twice is one term: it costs one lookup, and counts once.
  const seen = new Set<string>();
  const add = (words: string[], phrase: boolean) => {
    const key = `${phrase}:${words.join(' ')}`;
    if (seen.has(key)) return;
    if (counted + words.length > SEARCH_WORDS_MAX) {
      cut = 'words';
      words = words.slice(0, SEARCH_WORDS_MAX - counted);
      if (words.length === 0) return;
      phrase &&= words.length > 1;
    }
    seen.add(key);
    counted += words.length;
    terms.push({ words, phrase, prefix: false });
  };
  // Outside quotes every word is a term; inside, the words are one phrase. An unclosed quote
  // runs to the end.
  text.split(QUOTES).forEach((part, index) => {
    const words = wordsOf(part);
    if (index % 2 === 1 && words.length > 1) add(words, true);
    else for (const word of words) add([word], false);
  });
  const last = terms.at(-1);
  // The last word is the one still being typed (the header box searches as one types).
  if (last && !last.phrase && !/["\u201c\u201d\u201e\u00ab\u00bb]\s*$/.test(text)) {
    last.prefix = Array.from(last.words[0] ?? '').length >= PREFIX_MIN;
  }
  return { text, terms, cut };
}

/**
 * The terms in the engine's syntax, every word quoted (it holds only letters, marks and
 * digits, so no quote can close early): FTS5 `"a" "b c" "d"*`, to_tsquery
 * `'a' & ('b' <-> 'c') & 'd':*`. Both engines stem and unaccent what is inside the quotes.
 */
export function engineQuery(engine: Engine, terms: readonly SearchTerm[]): string {
  if (engine === 'sqlite')
    return terms.map((term) => `"${term.words.join(' ')}"${term.prefix ? '*' : ''}`).join(' ');
  return terms
    .map((term) =>
      term.phrase
        ? `(${term.words.map((word) => `'${word}'`).join(' <-> ')})`
        : `'${term.words[0]}'${term.prefix ? ':*' : ''}`,
    )
    .join(' & ');
}

/** Where the engines' highlights start and stop: control characters no indexed text holds. */
export const MARK_START = '\u0002';
export const MARK_STOP = '\u0003';

/** A stretch of a title or snippet, highlighted where it matched. */
export type Segment = { text: string; mark: boolean };

/** Text with MARK_START/MARK_STOP around matches, as segments (markers never shown). */
export function segmentsOf(marked: string): Segment[] {
  const segments: Segment[] = [];
  let mark = false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the markers are control characters
  for (const part of marked.split(/([\u0002\u0003])/)) {
    if (part === MARK_START) mark = true;
    else if (part === MARK_STOP) mark = false;
    else if (part !== '') {
      const previous = segments.at(-1);
      if (previous && previous.mark === mark) previous.text += part;
      else segments.push({ text: part, mark });
    }
  }
  return segments;
}
