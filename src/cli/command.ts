// Owns what every `folio` command shares: the shape of a command's run, the I/O it is given,
// and the two ways it refuses. Light on purpose (types and two classes): the entry, folio.ts,
// imports it before it knows which command runs, and only that command's module loads more.
import type { ContentStore } from '../lib/content/content';
import type { ContentFile } from '../lib/content/files';
import type { Database } from '../lib/data/db';

export type CliIo = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** A new password: asked twice without echo on a terminal, else the first line of stdin. */
  readPassword: () => Promise<string>;
  readFile: (path: string) => Promise<string>;
  siteUrl: string;
  exists: (path: string) => Promise<boolean>;
  /** Why export cannot write these names in the folder (made if missing), one line each. */
  exportProblems: (dir: string, names: readonly string[]) => Promise<string[]>;
  writeFiles: (dir: string, files: ContentFile[]) => Promise<void>;
  /** The folder's `.md` names, sorted. */
  listMarkdown: (dir: string) => Promise<string[]>;
  /** One of the folder's files: its text, or what it is instead of a regular file. */
  readContentFile: (dir: string, name: string) => Promise<string | { problem: string }>;
  /**
   * A long command's progress ("imported 12 000 / 100 000 files"), shown on a terminal only
   * (stderr, rewritten in place); null ends the line. Piped or in tests: nothing.
   */
  progress?: (line: string | null) => void;
  replaceDatabase: (backup: string, target: string) => Promise<void>;
};

/** Bad arguments: the usage follows, exit 2. */
export class UsageError extends Error {}
/** A refused operation: one line, exit 1. */
export class CliError extends Error {}

export type Parsed = {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
};

/**
 * One command's work. `db` is DATABASE_URL's database, migrated first unless the command says
 * otherwise (and not opened at all for `database: 'none'`).
 */
export type Run = (args: Parsed, context: { db: Database; io: CliIo }) => Promise<void>;

/**
 * Between two batches of a long command (import, export, db copy): a full collection, a few
 * milliseconds with a heap of about 12 MB. What a batch leaves is garbage, yet the collector
 * let it pile up the longer a run went (import's peak: 190 MB at 1 000 pages, 328 MB at
 * 100 000, the live heap flat throughout); collected per batch, the peak is the batch's.
 */
export function betweenBatches(): void {
  Bun.gc(true);
}

export function one(positionals: string[]): string {
  return positionals[0] ?? '';
}

/** The file's text, or a one-line refusal naming it. */
export async function readNamedFile(io: CliIo, file: string): Promise<string> {
  if (!(await io.exists(file))) throw new CliError(`cannot read ${file}: no such file`);
  return io.readFile(file);
}

export async function pageIdOf(store: ContentStore, slug: string): Promise<number> {
  const page = await store.getPage(slug, { draft: true });
  if (!page) throw new CliError(`There is no page “${slug}”.`);
  return page.id;
}
