import { describe, expect, test } from 'bun:test';
import {
  importRefusal,
  parseRedirectsCsv,
  REDIRECTS_CSV_HEADER,
  redirectCsvLine,
} from './redirects-csv';

describe('the redirects file', () => {
  test('reads a header, plain and quoted fields, CRLF, a BOM and blank lines', () => {
    const text = `\uFEFF${REDIRECTS_CSV_HEADER}\r\n/old,/about,301\r\n\r\n"/a,b","https://x.example/?q=""1""",302\n/c,/about,\n`;
    expect(parseRedirectsCsv(text)).toEqual({
      redirects: [
        { line: 2, from: '/old', to: '/about', status: 301 },
        { line: 4, from: '/a,b', to: 'https://x.example/?q="1"', status: 302 },
        { line: 5, from: '/c', to: '/about', status: 301 },
      ],
      problems: [],
    });
  });

  test('names the lines it cannot read', () => {
    expect(parseRedirectsCsv('/a,/b,307\n/c,/d,301,extra\n"/open,/x').problems).toEqual([
      { line: 1, message: 'The status is 301 or 302, not “307”.' },
      { line: 2, message: 'A line has three fields: from,to,status.' },
      { line: 3, message: 'A quoted field is never closed.' },
    ]);
  });

  test('what it writes it reads back', () => {
    const redirects = [
      { from: '/plain', to: '/about', status: 301 as const },
      { from: '/with,comma', to: 'https://example.com/?a="b"', status: 302 as const },
    ];
    const text = [REDIRECTS_CSV_HEADER, ...redirects.map(redirectCsvLine)].join('\n');
    expect(parseRedirectsCsv(text).redirects.map(({ line: _, ...rest }) => rest)).toEqual(
      redirects,
    );
  });
});

// Hostile pass 27, 14: a file of 50 001 lines was refused as "huge.csv:0: …" and "one line was
// refused".
test('a refusal of the whole file is said of the file; refused lines are counted', () => {
  const whole = importRefusal('huge.csv', [
    { line: 0, message: 'At most 50000 redirects per file; this one holds 50001: split it.' },
  ]);
  expect(whole.lines).toEqual([
    'huge.csv: At most 50000 redirects per file; this one holds 50001: split it.',
  ]);
  expect(whole.summary).toBe('nothing imported: the file was refused');
  expect(whole.summary).not.toContain('one line');
  const one = importRefusal('bad.csv', [{ line: 3, message: 'No.' }]);
  expect(one).toEqual({
    lines: ['bad.csv:3: No.'],
    summary: 'nothing imported: one line was refused',
  });
  const many = importRefusal(
    'bad.csv',
    Array.from({ length: 30 }, (_, i) => ({ line: i + 2, message: 'No.' })),
  );
  expect(many.lines).toHaveLength(20);
  expect(many.summary).toBe('nothing imported: 30 lines were refused');
});
