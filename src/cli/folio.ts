// The `folio` CLI: content and database chores against the database named by DATABASE_URL.
// COMMANDS is the one list of what it does: the usage text and the README's table are made
// from it (a test checks the README). Every refusal is one line and exit 1; bad arguments
// print the usage and exit 2; nothing prints a stack trace.

import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { SQL } from 'bun';
import { type ContentStore, createContentStore, isContentError } from '../lib/content/content';
import { formatUtc } from '../lib/content/dates';
import { type ContentFile, exportContent, importContent } from '../lib/content/files';
import { parsePublishTime, unreadableTimeMessage } from '../lib/content/publish-time';
import { seedDemoContent } from '../lib/content/seed';
import {
  type Database,
  engineOf,
  maskedUrl,
  migrate,
  openDatabase,
  schemaVersion,
  serversUsing,
  sqliteFileOf,
} from '../lib/data/db';
import { copySite } from '../lib/data/db-copy';
import { isDatabaseBusy, isDatabaseUnavailable } from '../lib/data/db-errors';
import { migrations } from '../lib/data/migrations';
import { addEditor, endSessionsOf, listEditors, removeEditor } from '../lib/editors/accounts';
import { shareLinkPath } from '../lib/http/routes';
import { createMediaStore } from '../lib/media/media';
import { firstFew } from '../lib/media/media-refs';
import {
  createPreviewLink,
  listPreviewLinks,
  parseTtl,
  revokePreviewLink,
} from '../lib/share-links/share-links';

export type CliIo = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** A new password: asked twice without echo on a terminal, else the first line of stdin. */
  readPassword: () => Promise<string>;
  readFile: (path: string) => Promise<string>;
  siteUrl: string;
  exists: (path: string) => Promise<boolean>;
  writeFiles: (dir: string, files: ContentFile[]) => Promise<void>;
  readDir: (dir: string) => Promise<ContentFile[]>;
  replaceDatabase: (backup: string, target: string) => Promise<void>;
};

/** Bad arguments: the usage follows, exit 2. */
class UsageError extends Error {}
/** A refused operation: one line, exit 1. */
class CliError extends Error {}

type Parsed = { positionals: string[]; values: Record<string, string | boolean | undefined> };
type Run = (
  args: Parsed,
  context: { db: Database; store: ContentStore; io: CliIo },
) => Promise<void>;

type Command = {
  /** The words that name it, e.g. `editor sessions revoke`. */
  name: string;
  /** Its arguments as the usage shows them. */
  args?: string;
  summary: string;
  options?: ParseArgsOptionsConfig;
  /** How many positional arguments it takes, and whether they may be left out. */
  positionals?: number;
  optional?: boolean;
  /** How it uses DATABASE_URL's database: migrated first (the default), as it is, or not at all. */
  database?: 'migrated' | 'as-is' | 'none';
  run: Run;
};

function one(positionals: string[]): string {
  return positionals[0] ?? '';
}

/** The file's text, or a one-line refusal naming it. */
async function readNamedFile(io: CliIo, file: string): Promise<string> {
  if (!(await io.exists(file))) throw new CliError(`cannot read ${file}: no such file`);
  return io.readFile(file);
}

/** Why a file is not a Folio database we can restore, or null when it is. */
async function checkBackup(file: string): Promise<string | null> {
  const backup = new SQL({ adapter: 'sqlite', filename: file, readonly: true });
  try {
    const [integrity] = await backup<{ integrity_check: string }[]>`PRAGMA integrity_check`;
    if (integrity?.integrity_check !== 'ok') return 'integrity check failed';
    const [table] = await backup`
      SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`;
    return table ? null : 'it has no Folio schema';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await backup.close();
  }
}

async function pageIdOf(store: ContentStore, slug: string): Promise<number> {
  const page = await store.getPage(slug, { draft: true });
  if (!page) throw new CliError(`There is no page “${slug}”.`);
  return page.id;
}

/** A URL `db copy` can open, or a usage error naming the argument. */
function databaseUrlArgument(value: string, which: string): string {
  if (engineOf(value) === null)
    throw new UsageError(`${which} must be sqlite:<file> or postgres://…, not ${maskedUrl(value)}`);
  return value;
}

export const COMMANDS: readonly Command[] = [
  {
    name: 'db migrate',
    summary: 'apply pending migrations (the server also does this at start)',
    database: 'as-is',
    run: async (_args, { db, io }) => {
      const ran = await migrate(db);
      io.stdout(
        ran.length
          ? `applied ${ran.length} migration(s): ${ran.map((m) => `${m.id} ${m.name}`).join(', ')}\n`
          : 'nothing to do: the database is up to date\n',
      );
    },
  },
  {
    name: 'db seed',
    summary: 'add the demo content to an empty database',
    run: async (_args, { db, store, io }) => {
      io.stdout(
        (await seedDemoContent(db, store))
          ? 'seeded demo content\n'
          : 'database already has pages; nothing seeded\n',
      );
    },
  },
  {
    name: 'db backup',
    args: '<file>',
    positionals: 1,
    summary: 'write a consistent copy of a SQLite database (safe while serving)',
    run: async ({ positionals }, { db, io }) => {
      const file = one(positionals);
      if (db.engine !== 'sqlite')
        throw new CliError(
          `db backup copies a SQLite file; for PostgreSQL use pg_dump, or \`db copy <postgres-url> sqlite:${file}\``,
        );
      if (await io.exists(file))
        throw new CliError(`${file} already exists; choose a new file name`);
      try {
        // VACUUM INTO reads one consistent snapshot while writers carry on (WAL mode).
        await db.client.unsafe('VACUUM INTO ?', [file]);
      } catch (error) {
        throw new CliError(
          `cannot write ${file}: ${error instanceof Error ? error.message : error}`,
        );
      }
      io.stdout(`backed up to ${file}\n`);
    },
  },
  {
    name: 'db restore',
    args: '<file>',
    positionals: 1,
    summary: 'replace a SQLite database with a backup (stop the server first)',
    database: 'as-is',
    run: async ({ positionals }, { db, io }) => {
      const file = one(positionals);
      const target = db.file;
      if (target === null)
        throw new CliError(
          'db restore replaces a SQLite file; for PostgreSQL use pg_restore, or `db copy sqlite:<backup> <empty postgres-url>`',
        );
      if (target === ':memory:')
        throw new CliError('DATABASE_URL is in memory: nothing to restore into');
      // A server keeps the file it opened: it would go on saving into the replaced one, and
      // every change made after the restore would be lost.
      const servers = serversUsing(target);
      if (servers.length > 0)
        throw new CliError(
          `Folio is serving ${target} (pid ${servers.join(', ')}); stop it, restore, then start it again`,
        );
      if (!(await io.exists(file))) throw new CliError(`cannot read ${file}: no such file`);
      const problem = await checkBackup(file);
      if (problem) throw new CliError(`${file} is not a usable backup: ${problem}`);
      await db.close();
      await io.replaceDatabase(file, target);
      io.stdout(`restored ${target} from ${file}\n`);
    },
  },
  {
    name: 'db copy',
    args: '<from-url> <to-url>',
    positionals: 2,
    summary:
      'copy a whole site between databases (SQLite ⇄ PostgreSQL) into an empty one; prints the counts',
    database: 'none',
    run: async ({ positionals }, { io }) => {
      const from = databaseUrlArgument(positionals[0] ?? '', 'the source');
      const to = databaseUrlArgument(positionals[1] ?? '', 'the target');
      if (from === to) throw new UsageError('the source and the target are the same database');
      if (engineOf(from) === 'sqlite' && !(await io.exists(sqliteFileOf(from))))
        throw new CliError(`cannot read ${sqliteFileOf(from)}: no such file`);
      const source = await openDatabase(from, { migrate: false });
      try {
        // A source from a newer Folio has tables this one does not know: refuse, copy nothing.
        const newest = Math.max(...migrations.map((migration) => migration.id));
        if ((await schemaVersion(source)) > newest)
          throw new CliError('the source was written by a newer Folio; copy it with that version');
        await migrate(source);
        const target = await openDatabase(to);
        try {
          const counts = await copySite(source, target).catch((error: unknown) => {
            if (error instanceof Error && /^it already has/.test(error.message))
              throw new CliError(`${maskedUrl(to)}: ${error.message}`);
            throw error;
          });
          io.stdout(`copied ${maskedUrl(from)} → ${maskedUrl(to)}\n`);
          io.stdout(`${'table'.padEnd(18)}${'source'.padStart(8)}${'target'.padStart(8)}\n`);
          let mismatched = false;
          for (const [table, { source: there, target: here }] of Object.entries(counts)) {
            if (there !== here) mismatched = true;
            io.stdout(
              `${table.padEnd(18)}${String(there).padStart(8)}${String(here).padStart(8)}\n`,
            );
          }
          if (mismatched) throw new CliError('the counts differ: the copy is not complete');
        } finally {
          await target.close();
        }
      } finally {
        await source.close();
      }
    },
  },
  {
    name: 'export',
    args: '<dir>',
    positionals: 1,
    summary: 'write every page as Markdown with front matter',
    run: async ({ positionals }, { store, io }) => {
      const dir = one(positionals);
      const files = await exportContent(store);
      await io.writeFiles(dir, files);
      io.stdout(`exported ${files.length} files to ${dir}\n`);
    },
  },
  {
    name: 'import',
    args: '<dir>',
    positionals: 1,
    summary: 'read pages from Markdown files; all or nothing',
    run: async ({ positionals }, { store, io }) => {
      const dir = one(positionals);
      if (!(await io.exists(dir))) throw new CliError(`cannot read ${dir}: no such folder`);
      const result = await importContent(store, await io.readDir(dir));
      if (result.problems.length > 0) {
        throw new CliError(
          `nothing imported; fix these files first:\n${result.problems.map((p) => `  ${p}`).join('\n')}`,
        );
      }
      io.stdout(`imported ${result.imported} files from ${dir}\n`);
      if (result.missingMedia.length > 0)
        io.stderr(
          `folio: the pages name ${result.missingMedia.length} image address(es) that answer no image in this database (${firstFew(result.missingMedia)}): export writes Markdown only, so bring the images with \`db copy\` or a backup; an address misspelt in the text needs the page mended\n`,
        );
    },
  },
  {
    name: 'editor add',
    args: '<email>',
    positionals: 1,
    summary:
      'create an editor, or reset their password (ends their sessions); asks for the password',
    run: async ({ positionals }, { db, io }) => {
      const editor = await addEditor(db, one(positionals), await io.readPassword());
      io.stdout(
        editor.created
          ? `editor ${editor.email} added\n`
          : `password of ${editor.email} reset; ${editor.sessionsEnded} session(s) ended\n`,
      );
    },
  },
  {
    name: 'editor list',
    summary: 'every editor, when they were added, and how many sessions are open',
    run: async (_args, { db, io }) => {
      const editors = await listEditors(db);
      if (editors.length === 0) io.stdout('no editors yet: add one with `editor add <email>`\n');
      for (const editor of editors)
        io.stdout(
          `${editor.email.padEnd(40)} added ${editor.createdAt}  ${editor.activeSessions} session(s)\n`,
        );
    },
  },
  {
    name: 'editor remove',
    args: '<email>',
    positionals: 1,
    summary: 'remove an editor and end their sessions',
    run: async ({ positionals }, { db, io }) => {
      const email = one(positionals);
      if (!(await removeEditor(db, email))) throw new CliError(`there is no editor ${email}`);
      io.stdout(`editor ${email} removed\n`);
    },
  },
  {
    name: 'editor sessions revoke',
    args: '<email>',
    positionals: 1,
    summary: 'sign an editor out everywhere',
    run: async ({ positionals }, { db, io }) => {
      const email = one(positionals);
      const ended = await endSessionsOf(db, email);
      if (ended === null) throw new CliError(`there is no editor ${email}`);
      io.stdout(`${ended} session(s) of ${email} ended\n`);
    },
  },
  {
    name: 'page list',
    args: '[--json]',
    options: { json: { type: 'boolean' } },
    summary: 'every page with its state: published, draft-only, or published with changes',
    run: async ({ values }, { store, io }) => {
      const pages = await store.listAll();
      if (values.json) io.stdout(`${JSON.stringify(pages, null, 2)}\n`);
      else
        for (const page of pages)
          io.stdout(
            `${page.slug.padEnd(32)} ${page.state.padEnd(10)} ${page.title}${
              page.publishAt ? `  (to be published ${formatUtc(page.publishAt)})` : ''
            }${
              page.missedPublishAt
                ? `  (not published as scheduled for ${formatUtc(page.missedPublishAt)}: see its preview)`
                : ''
            }\n`,
          );
    },
  },
  {
    name: 'page put',
    args: '<slug> --title T --body-file F [--summary S] [--publish]',
    positionals: 1,
    options: {
      title: { type: 'string' },
      'body-file': { type: 'string' },
      summary: { type: 'string' },
      publish: { type: 'boolean' },
    },
    summary: "create or update a page's draft from a Markdown file, optionally publishing it",
    run: async ({ positionals, values }, { store, io }) => {
      const slug = one(positionals);
      if (typeof values.title !== 'string' || typeof values['body-file'] !== 'string')
        throw new UsageError('page put needs --title and --body-file');
      const body = await readNamedFile(io, values['body-file']).catch((error: unknown) => {
        // A folder, an unreadable file: said about the file the operator named.
        if ((error as { code?: unknown }).code === 'EISDIR')
          throw new CliError(`cannot read ${values['body-file']}: it is a folder, not a file`);
        throw error;
      });
      const summary = typeof values.summary === 'string' ? values.summary : '';
      await store.putPage(
        { slug, title: values.title, summary, body },
        { publish: values.publish === true, editor: 'cli' },
      );
      io.stdout(`${slug}: ${values.publish ? 'saved and published' : 'draft saved'}\n`);
    },
  },
  {
    name: 'page publish',
    args: '<slug>',
    positionals: 1,
    summary: "publish the page's latest draft",
    run: async ({ positionals }, { store, io }) => {
      await store.publish(one(positionals), { editor: 'cli' });
      io.stdout(`${one(positionals)}: published\n`);
    },
  },
  {
    name: 'page unpublish',
    args: '<slug>',
    positionals: 1,
    summary: 'take the page down (its text is kept as a draft)',
    run: async ({ positionals }, { store, io }) => {
      await store.unpublish(one(positionals), { editor: 'cli' });
      io.stdout(`${one(positionals)}: unpublished\n`);
    },
  },
  {
    name: 'page schedule',
    args: '<slug> <time>',
    positionals: 2,
    summary:
      "publish the page's draft at a time (ISO 8601: 2026-12-01T09:00+01:00; no zone means UTC)",
    run: async ({ positionals }, { store, io }) => {
      const [slug = '', text = ''] = positionals;
      const at = parsePublishTime(text);
      if (!at) throw new CliError(unreadableTimeMessage(text));
      const schedule = await store.schedulePublish(slug, at, { editor: 'cli' });
      io.stdout(`${slug}: will be published at ${formatUtc(schedule.publishAt)}\n`);
    },
  },
  {
    name: 'page unschedule',
    args: '<slug>',
    positionals: 1,
    summary: "cancel the page's scheduled publish",
    run: async ({ positionals }, { store, io }) => {
      const slug = one(positionals);
      const cancelled = await store.cancelSchedule(slug);
      io.stdout(cancelled ? `${slug}: schedule cancelled\n` : `${slug}: was not scheduled\n`);
    },
  },
  {
    name: 'page publish-due',
    args: '',
    summary:
      'publish every page whose scheduled time has passed (servers do this themselves; for a site with none running)',
    run: async (_args, { store, io }) => {
      const published = await store.publishDue();
      if (published.length === 0) io.stdout('nothing is due\n');
      for (const page of published)
        if (page.refused === undefined)
          io.stdout(`${page.slug}: published (due ${formatUtc(page.publishAt)})\n`);
        else io.stderr(`folio: ${page.slug}: ${page.refused}\n`);
      const refused = published.filter((page) => page.refused !== undefined).length;
      if (refused > 0)
        throw new CliError(
          `${refused} page(s) were not published (above); their schedules are cleared and their drafts kept`,
        );
    },
  },
  {
    name: 'media refresh',
    args: '',
    summary:
      'make the image sizes this version makes for images kept before it, and offer them on every page',
    run: async (_args, { db, store, io }) => {
      const media = createMediaStore(db);
      const { hashes, made, problems } = await media.refreshVariants();
      // Every page with an image, not only those whose image gained a size now: a run stopped
      // before this step left pages without sizes their images have (hostile pass).
      const rendered = await store.refreshPictures();
      if (made > 0 || rendered > 0)
        io.stdout(
          `made ${made} image file(s) for ${hashes.length} image(s); updated the images of ${rendered} page text(s)\n`,
        );
      else if (problems.length === 0)
        io.stdout('every image has the sizes this version makes, and every page offers them\n');
      for (const problem of problems) io.stderr(`folio: ${problem}\n`);
      if (problems.length > 0)
        throw new CliError(
          `${problems.length} image(s) could not be given their sizes (above); their pages keep the sizes they had`,
        );
    },
  },
  {
    name: 'preview-link list',
    args: '[<slug>]',
    positionals: 1,
    optional: true,
    summary: "open share links (every page's, or one page's): id, page, expiry, who made it",
    run: async ({ positionals }, { db, store, io }) => {
      const slug = positionals[0];
      const links = await listPreviewLinks(db, slug ? { pageId: await pageIdOf(store, slug) } : {});
      if (links.length === 0) io.stdout('no open share links\n');
      for (const link of links)
        io.stdout(
          `${String(link.id).padStart(5)}  ${link.slug.padEnd(32)} until ${link.expiresAt}  by ${link.createdBy ?? 'cli'}\n`,
        );
    },
  },
  {
    name: 'preview-link revoke',
    args: '<id>',
    positionals: 1,
    summary: 'revoke a share link (ids from `preview-link list`)',
    run: async ({ positionals }, { db, io }) => {
      const text = one(positionals);
      const id = /^\d{1,15}$/.test(text) ? Number(text) : 0;
      if (id <= 0)
        throw new UsageError('a link id is a whole number, as `preview-link list` shows it');
      if (!(await revokePreviewLink(db, id)))
        throw new CliError(`there is no open share link ${id}`);
      io.stdout(`share link ${id} revoked\n`);
    },
  },
  {
    name: 'preview-link',
    args: '<slug> [--ttl 24h]',
    positionals: 1,
    options: { ttl: { type: 'string' } },
    summary: "print a read-only link to the page's draft, for at most 7 days (s, m, h, d)",
    run: async ({ positionals, values }, { db, store, io }) => {
      const slug = one(positionals);
      const ttl = parseTtl(typeof values.ttl === 'string' ? values.ttl : '24h');
      if ('error' in ttl) throw new UsageError(ttl.error);
      const { token, link } = await createPreviewLink(db, {
        pageId: await pageIdOf(store, slug),
        createdBy: 'cli',
        ttlSeconds: ttl.seconds,
      });
      io.stdout(`${io.siteUrl}${shareLinkPath(slug, token)}\n`);
      io.stderr(`link ${link.id}, works until ${link.expiresAt}\n`);
    },
  },
];

function signature(command: Command): string {
  return command.args ? `${command.name} ${command.args}` : command.name;
}

export function usageText(): string {
  const width = Math.max(...COMMANDS.map((command) => signature(command).length)) + 2;
  const lines = COMMANDS.map((command) => {
    const left = `  ${signature(command)}`;
    return left.length + 2 > width + 2
      ? `${left}\n${' '.repeat(width + 2)}${command.summary}`
      : `${left.padEnd(width + 2)}${command.summary}`;
  });
  return `Usage: bun run folio <command>\n\n${lines.join('\n')}\n\n  --help                              this text\n`;
}

/** The README's table of commands, made from the same list (columns padded as Biome does). */
export function commandTableMarkdown(): string {
  const rows = [
    ['command', 'does'],
    ...COMMANDS.map((command) => [`\`${signature(command)}\``, command.summary]),
  ];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const [header = [], ...body] = rows;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join(
    '\n',
  );
}

/** The command `argv` names: the longest matching name wins (`preview-link list` over `preview-link`). */
function findCommand(argv: string[]): { command: Command; rest: string[] } | null {
  let best: { command: Command; rest: string[] } | null = null;
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    if (words.every((word, i) => argv[i] === word)) {
      if (!best || words.length > best.command.name.split(' ').length)
        best = { command, rest: argv.slice(words.length) };
    }
  }
  return best;
}

function parse(command: Command, rest: string[]): Parsed {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: command.options ?? {},
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const most = command.positionals ?? 0;
  const least = command.optional ? 0 : most;
  const count = parsed.positionals.length;
  if (count < least || count > most || parsed.positionals.some((value) => value === ''))
    throw new UsageError(`${command.name} takes ${command.args || 'no arguments'}`);
  return parsed as Parsed;
}

/**
 * Runs one command. `openDb` opens DATABASE_URL's database (not migrated); it is called only
 * for commands that use it, so `db copy` and `--help` work whatever DATABASE_URL says.
 */
export async function runCli(
  argv: string[],
  openDb: () => Promise<Database>,
  io: CliIo,
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    io.stdout(argv.includes('--markdown') ? `${commandTableMarkdown()}\n` : usageText());
    return 0;
  }
  try {
    const found = findCommand(argv);
    if (!found) {
      throw new UsageError(
        argv.length ? `unknown command: ${argv.slice(0, 2).join(' ')}` : 'no command given',
      );
    }
    const args = parse(found.command, found.rest);
    const use = found.command.database ?? 'migrated';
    const db = use === 'none' ? null : await openDb();
    if (db && use === 'migrated') await migrate(db);
    const opened = db as Database;
    await found.command.run(args, { db: opened, store: createContentStore(opened), io });
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`folio: ${error.message}\n\n${usageText()}`);
      return 2;
    }
    io.stderr(`folio: ${describeRefusal(error)}\n`);
    return 1;
  }
}

/** What the file system's refusals mean to someone who typed a path. */
const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'not a folder (or a path through a file)',
  EISDIR: 'a folder, not a file',
  EEXIST: 'already exists, and is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'the disk is full',
  EROFS: 'the file system is read-only',
};

/** One line for a refusal: what went wrong in words, never a stack trace. */
function describeRefusal(error: unknown): string {
  if (error instanceof CliError || isContentError(error)) return error.message;
  if (error instanceof Error && error.name === 'ZodError') {
    try {
      return (JSON.parse(error.message) as { message: string }[])
        .map((issue) => issue.message)
        .join(' ');
    } catch {
      return error.message;
    }
  }
  const { code, path: file } = (error ?? {}) as { code?: unknown; path?: unknown };
  if (isDatabaseBusy(error)) return 'the database is busy; try again in a moment';
  if (isDatabaseUnavailable(error)) return 'cannot reach the database; is it running?';
  const fileProblem = FILE_PROBLEMS[String(code)];
  if (fileProblem) return typeof file === 'string' ? `${file}: ${fileProblem}` : fileProblem;
  return `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}

/** The real file system, for the command line (tests pass their own). */
export const fileSystemIo = {
  exists: (file: string) =>
    Bun.file(file)
      .stat()
      .then(() => true)
      .catch(() => false),
  async writeFiles(dir: string, files: ContentFile[]) {
    await mkdir(dir, { recursive: true });
    for (const file of files) await Bun.write(path.join(dir, file.name), file.text);
  },
  async readDir(dir: string): Promise<ContentFile[]> {
    const names = (await readdir(dir)).filter((name) => name.endsWith('.md')).sort();
    return Promise.all(
      names.map(async (name) => ({ name, text: await Bun.file(path.join(dir, name)).text() })),
    );
  },
  async replaceDatabase(backup: string, target: string) {
    // Copy beside the target, then rename: the database file is replaced in one step.
    const staging = `${target}.restoring`;
    await copyFile(backup, staging);
    await rm(`${target}-wal`, { force: true });
    await rm(`${target}-shm`, { force: true });
    await rename(staging, target);
  },
};

/** Asks twice on a terminal, without echo; Ctrl-C (or Ctrl-D on an empty line) cancels. */
async function askPasswordOnTerminal(): Promise<string> {
  const stdin = process.stdin;
  // Lines typed so far (null: cancelled); what is typed ahead of a prompt is kept for it.
  const lines: (string | null)[] = [];
  let typed = '';
  let waiting: ((line: string | null) => void) | null = null;
  const deliver = (line: string | null) => {
    const resolve = waiting;
    waiting = null;
    if (resolve) resolve(line);
    else lines.push(line);
  };
  const onData = (chunk: Buffer | string) => {
    for (const ch of chunk.toString()) {
      if (ch === '\r' || ch === '\n') {
        deliver(typed);
        typed = '';
      } else if (ch === '\u0003' || (ch === '\u0004' && typed === '')) deliver(null);
      else if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
      else if (ch >= ' ') typed += ch;
    }
  };
  const ask = async (prompt: string) => {
    process.stderr.write(prompt);
    const line =
      lines.length > 0
        ? (lines.shift() as string | null)
        : await new Promise<string | null>((resolve) => {
            waiting = resolve;
          });
    process.stderr.write('\n');
    if (line === null) throw new CliError('cancelled; nothing was changed');
    return line;
  };
  stdin.setRawMode(true);
  stdin.resume();
  stdin.on('data', onData);
  try {
    const first = await ask('Password (at least 10 characters): ');
    const second = await ask('The same password again: ');
    if (first !== second) throw new CliError('the two passwords differ; nothing was changed');
    return first;
  } finally {
    stdin.off('data', onData);
    stdin.setRawMode(false);
    stdin.pause();
  }
}

/** From a pipe or a file: the first line. */
async function readPasswordLine(): Promise<string> {
  const text = await Bun.stdin.text();
  return text.split(/\r?\n/, 1)[0] ?? '';
}

if (import.meta.main) {
  const { getEnv } = await import('../lib/runtime/env');
  let env: ReturnType<typeof getEnv>;
  try {
    env = getEnv();
  } catch (error) {
    process.stderr.write(`folio: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  // A SQLite file that is not there is made (so `editor add` works before the first start),
  // but a mistyped path would then succeed against an empty site: say so when it happens.
  const sqliteFile =
    engineOf(env.DATABASE_URL) === 'sqlite' ? sqliteFileOf(env.DATABASE_URL) : null;
  const newFile = sqliteFile !== null && sqliteFile !== ':memory:' && !existsSync(sqliteFile);
  // Opened as it is: `db migrate` reports what it applies; other commands migrate first.
  const code = await runCli(
    Bun.argv.slice(2),
    () => openDatabase(env.DATABASE_URL, { migrate: false }),
    {
      ...fileSystemIo,
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      readPassword: () => (process.stdin.isTTY ? askPasswordOnTerminal() : readPasswordLine()),
      readFile: (file) => Bun.file(file).text(),
      siteUrl: env.SITE_URL ?? `http://localhost:${env.PORT}`,
    },
  );
  if (newFile && sqliteFile !== null && existsSync(sqliteFile))
    process.stderr.write(
      `folio: ${sqliteFile} did not exist: it is a new, empty database now (DATABASE_URL names it)\n`,
    );
  process.exit(code);
}
