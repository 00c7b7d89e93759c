// Owns content as Markdown files with front matter, so pages can live in git and move
// between instances: `<slug>.md` is the published version, `<slug>.draft.md` a newer draft.
import 'server-only';

import type { ContentStore } from './content';
import type { ExportedPage } from './export-reads';
import { type PageFields, pageFieldsSchema } from './page-fields';
import { validateNewSlug } from './slugs';

export type ContentFile = { name: string; text: string };
export type ParsedFile = { slug: string; kind: 'published' | 'draft'; fields: PageFields };

// Values are JSON literals (a YAML subset), so any title or summary round-trips exactly. JSON
// leaves U+2028 and U+2029 raw, and editors and YAML readers break lines at them: escaped.
const frontMatterValue = (value: string) =>
  JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

export function toFrontMatterFile(fields: PageFields): string {
  return `---\ntitle: ${frontMatterValue(fields.title)}\nsummary: ${frontMatterValue(fields.summary)}\n---\n${fields.body}`;
}

// `<slug>.md` or `<slug>.draft.md`.
const NAME = /^(?<slug>[^/\\]+?)(?<draft>\.draft)?\.md$/;

export function parseContentFile(file: ContentFile): ParsedFile {
  const match = NAME.exec(file.name);
  const slug = match?.groups?.slug ?? '';
  if (!match) throw new Error('the file name must be <slug>.md or <slug>.draft.md');
  const slugProblem = validateNewSlug(slug);
  if (slugProblem) throw new Error(`bad slug "${slug}": ${slugProblem}`);
  const text = file.text.replace(/^\uFEFF/, '');
  // Files written on Windows have CRLF lines; the body's line endings are normalised by the
  // page-field rules, the front matter's here.
  const front = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!front?.[1]) throw new Error('missing front matter (--- title/summary ---)');
  const values: Record<string, unknown> = {};
  for (const line of front[1].split(/\r?\n/)) {
    if (!line.trim()) continue;
    // Lines end at \n only: a raw U+2028 inside a quoted value is part of the value.
    const pair = /^([a-z]+):[ \t]*([\s\S]*?)[ \t]*$/.exec(line);
    if (!pair?.[1]) throw new Error(`cannot read front matter line: ${line.slice(0, 60)}`);
    try {
      values[pair[1]] = JSON.parse(pair[2] ?? '');
    } catch {
      throw new Error(`${pair[1]} must be a quoted string`);
    }
  }
  const parsed = pageFieldsSchema.safeParse({
    title: values.title,
    summary: values.summary ?? '',
    body: text.slice(front[0].length),
  });
  if (!parsed.success)
    throw new Error(
      parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`).join('; '),
    );
  return { slug, kind: match.groups?.draft ? 'draft' : 'published', fields: parsed.data };
}

/**
 * Pages per batch of `export`: what it holds in memory at once (with 1–2 KB pages, well under
 * a megabyte of text).
 */
export const EXPORT_BATCH = 200;

/**
 * Files per batch of `import`, and so per write transaction: the write lock is held for one
 * batch, which a server's own writes on the same database wait for (about 0.1 s on SQLite
 * and 0.3 s on PostgreSQL for 50 files on this 2-core machine; 200 files held PostgreSQL's
 * for up to 1.7 s), while its reads never wait.
 */
export const IMPORT_BATCH = 50;

/** The files of one page, as `export` writes them: `<slug>.md` and `<slug>.draft.md`. */
function filesOf(page: ExportedPage): ContentFile[] {
  const files: ContentFile[] = [];
  if (page.published)
    files.push({ name: `${page.slug}.md`, text: toFrontMatterFile(page.published) });
  if (page.draft)
    files.push({ name: `${page.slug}.draft.md`, text: toFrontMatterFile(page.draft) });
  return files;
}

/**
 * The site as files, `batchSize` pages at a time in id order (keyset, not offset, so a batch
 * costs the same at the end of a large site as at its start); never the whole site at once.
 */
export async function* exportBatches(
  store: ContentStore,
  batchSize = EXPORT_BATCH,
): AsyncGenerator<ContentFile[]> {
  let after = 0;
  for (;;) {
    const pages = await store.pagesAfter(after, batchSize);
    if (pages.length === 0) return;
    yield pages.flatMap(filesOf);
    after = pages[pages.length - 1]?.id ?? after;
  }
}

/** Every file at once: for tests and small sites; `export` itself goes batch by batch. */
export async function exportContent(store: ContentStore): Promise<ContentFile[]> {
  const files: ContentFile[] = [];
  for await (const batch of exportBatches(store)) files.push(...batch);
  return files;
}

/** Where `import` reads its files: their names (sorted), and one file's text at a time. */
export type ContentSource = {
  /** The files' names, in the order their problems are listed (the CLI's: sorted). */
  names: readonly string[];
  /** The file's text, or what it is instead of a regular file. */
  read: (name: string) => Promise<string | { problem: string }>;
};

/** Files already in memory as a source (tests, and callers holding a few files). */
export function sourceOf(files: readonly ContentFile[]): ContentSource {
  const byName = new Map(files.map((file) => [file.name, file.text]));
  return {
    names: [...byName.keys()],
    read: async (name) => byName.get(name) ?? { problem: 'not found' },
  };
}

/**
 * The names in the order import writes them, cut into batches of at most `batchSize` files
 * (at least two): a page's published file, then its draft on top of it, always in the same
 * batch. Names only: the texts are read batch by batch.
 */
export function* importBatches(names: readonly string[], batchSize: number): Generator<string[]> {
  const pages = new Map<string, { published?: string; draft?: string }>();
  for (const name of names) {
    const match = NAME.exec(name);
    const slug = match?.groups?.slug ?? name;
    const page = pages.get(slug) ?? {};
    if (match?.groups?.draft) page.draft = name;
    else page.published = name;
    pages.set(slug, page);
  }
  let batch: string[] = [];
  for (const slug of [...pages.keys()].sort()) {
    const page = pages.get(slug) ?? {};
    const files = [page.published, page.draft].filter((name) => name !== undefined);
    if (batch.length + files.length > Math.max(2, batchSize)) {
      yield batch;
      batch = [];
    }
    batch.push(...files);
  }
  if (batch.length > 0) yield batch;
}

export type ImportResult = { imported: number; problems: string[]; missingMedia: string[] };

/**
 * An import that stopped after some batches were written: which files are in (the first
 * `written`, in import order, up to `lastWritten`) and why the next batch was not.
 */
export class ImportStopped extends Error {
  override name = 'ImportStopped';
  constructor(
    readonly written: number,
    readonly total: number,
    readonly lastWritten: string | null,
    reason: string,
  ) {
    super(
      written === 0
        ? `nothing imported: ${reason}`
        : `import stopped after ${written} of ${total} files (the pages up to ${lastWritten}, in name order, are imported; the rest are not): ${reason}; run the same import again to finish it`,
    );
  }
}

/** Refusals listed at most: a folder of 100 000 bad files is said in a screenful. */
const PROBLEMS_SHOWN = 100;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Imports a folder's files in two passes that never hold more than one batch of texts.
 * First every file is read, parsed and checked (nothing is kept but the problems): if any is
 * bad, nothing is written, as before. Then the files are read again and written `batchSize`
 * at a time, each batch in its own short transaction (published with it), so a server on the
 * same database keeps answering. A batch that fails (a file changed since the check, the
 * disk full) stops the import with ImportStopped, which says what was written: one
 * transaction for the whole site held the write lock for minutes at 100 000 pages, and
 * running the import again overwrites what is there, so it finishes what was left.
 */
export async function importContent(
  store: ContentStore,
  input: ContentSource | readonly ContentFile[],
  {
    batchSize = IMPORT_BATCH,
    onProgress,
  }: {
    batchSize?: number;
    /** After each committed batch: files imported so far, of how many. */
    onProgress?: (done: number, total: number) => void;
  } = {},
): Promise<ImportResult> {
  const source = Array.isArray(input) ? sourceOf(input) : (input as ContentSource);
  const problems: string[] = [];
  let bad = 0;
  for (const name of source.names) {
    const text = await source.read(name);
    let problem: string | null = null;
    if (typeof text !== 'string') problem = `${text.problem}; import reads regular files only`;
    else
      try {
        parseContentFile({ name, text });
      } catch (error) {
        problem = messageOf(error);
      }
    if (problem === null) continue;
    bad++;
    if (problems.length < PROBLEMS_SHOWN) problems.push(`${name}: ${problem}`);
  }
  if (bad > problems.length) problems.push(`… and ${bad - problems.length} more`);
  if (problems.length > 0) return { imported: 0, problems, missingMedia: [] };

  const total = source.names.length;
  let done = 0;
  let lastWritten: string | null = null;
  const missing = new Set<string>();
  for (const names of importBatches(source.names, batchSize)) {
    const parsed: ParsedFile[] = [];
    try {
      for (const name of names) {
        const text = await source.read(name);
        if (typeof text !== 'string') throw new Error(`${name}: ${text.problem}`);
        try {
          parsed.push(parseContentFile({ name, text }));
        } catch (error) {
          throw new Error(`${name}: ${messageOf(error)} (changed since it was checked)`);
        }
      }
      // Export writes Markdown only: the images its pages name travel by backup or `db
      // copy`, and may come after the text. Those this database lacks are named, not refused.
      await store.putPages(
        parsed.map((file) => ({
          slug: file.slug,
          ...file.fields,
          publish: file.kind === 'published',
        })),
        { editor: 'import', allowMissingMedia: true, history: false },
      );
    } catch (error) {
      throw new ImportStopped(done, total, lastWritten, messageOf(error));
    }
    const html: string[] = [];
    for (const file of parsed) {
      const page = await store.getPage(file.slug, { draft: file.kind === 'draft' });
      if (page?.bodyHtml.includes('/media/')) html.push(page.bodyHtml);
    }
    if (html.length > 0)
      for (const address of await store.missingMedia(html.join('\n'))) missing.add(address);
    done += names.length;
    lastWritten = names[names.length - 1] ?? lastWritten;
    onProgress?.(done, total);
  }
  return { imported: done, problems: [], missingMedia: [...missing] };
}
