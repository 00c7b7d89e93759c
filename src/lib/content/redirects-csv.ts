// Owns the redirects file (`folio redirect export` / `import`): CSV (RFC 4180) with a header
// line `from,to,status`, one redirect per line, status 301 or 302 (empty: 301). Fields with a
// comma, quote or line break are quoted, quotes doubled. Three fixed columns are all it needs,
// so the reader is these few lines rather than a library (the writer quotes what it must).
import type { RedirectInput, RedirectStatus } from './redirects';

export const REDIRECTS_CSV_HEADER = 'from,to,status';

/** One line's fields, or null when a quote is left open. */
function fieldsOf(text: string, start: number): { fields: string[]; end: number } | null {
  const fields: string[] = [];
  let at = start;
  for (;;) {
    let value = '';
    if (text[at] === '"') {
      at += 1;
      for (;;) {
        const quote = text.indexOf('"', at);
        if (quote === -1) return null;
        value += text.slice(at, quote);
        if (text[quote + 1] === '"') {
          value += '"';
          at = quote + 2;
        } else {
          at = quote + 1;
          break;
        }
      }
    } else {
      const stop = text.slice(at).search(/[,\r\n]/);
      const end = stop === -1 ? text.length : at + stop;
      value = text.slice(at, end);
      at = end;
    }
    fields.push(value);
    if (text[at] === ',') {
      at += 1;
      continue;
    }
    if (text[at] === '\r') at += 1;
    if (text[at] === '\n') at += 1;
    return { fields, end: at };
  }
}

export type ParsedRedirects = {
  redirects: (RedirectInput & { line: number })[];
  problems: { line: number; message: string }[];
};

/** A redirects file read: each line's redirect (still to be checked), or why a line is not one. */
export function parseRedirectsCsv(text: string): ParsedRedirects {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const redirects: ParsedRedirects['redirects'] = [];
  const problems: ParsedRedirects['problems'] = [];
  let at = 0;
  let line = 0;
  while (at < body.length) {
    line += 1;
    const read = fieldsOf(body, at);
    if (!read) {
      problems.push({ line, message: 'A quoted field is never closed.' });
      break;
    }
    at = read.end;
    const [from = '', to = '', status = '', ...extra] = read.fields.map((field) => field.trim());
    if (read.fields.length === 1 && from === '') continue;
    if (line === 1 && from.toLowerCase() === 'from' && to.toLowerCase() === 'to') continue;
    if (extra.some((field) => field !== '')) {
      problems.push({ line, message: 'A line has three fields: from,to,status.' });
      continue;
    }
    if (status !== '' && status !== '301' && status !== '302') {
      problems.push({ line, message: `The status is 301 or 302, not “${status.slice(0, 20)}”.` });
      continue;
    }
    redirects.push({ line, from, to, status: (status === '302' ? 302 : 301) as RedirectStatus });
  }
  return { redirects, problems };
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A redirect as a line of the file (no line break). */
export function redirectCsvLine(redirect: RedirectInput): string {
  return [redirect.from, redirect.to, String(redirect.status)].map(csvField).join(',');
}

/** Refused lines named at most: a file refused for thousands of lines says how many, not each. */
export const IMPORT_PROBLEMS_SHOWN = 20;

/**
 * What `redirect import` says of a refused file: one line per problem (`file:line: why`; a
 * problem of the whole file, such as too many redirects, has line 0 and is said of the file)
 * and a last line that counts what was refused (hostile pass 27, 14: a file of 50 001 lines
 * was "huge.csv:0: …" and "one line was refused").
 */
export function importRefusal(
  file: string,
  problems: readonly { line: number; message: string }[],
): { lines: string[]; summary: string } {
  const lines = problems
    .slice(0, IMPORT_PROBLEMS_SHOWN)
    .map(({ line, message }) => (line > 0 ? `${file}:${line}: ${message}` : `${file}: ${message}`));
  const refusedLines = problems.filter(({ line }) => line > 0).length;
  const summary =
    refusedLines === 0
      ? 'nothing imported: the file was refused'
      : `nothing imported: ${refusedLines === 1 ? 'one line was' : `${refusedLines} lines were`} refused`;
  return { lines, summary };
}
