// The `folio` CLI: content and database chores against the database named by DATABASE_URL.
// COMMANDS is the one list of what it does: the usage text and the README's table are made
// from it (a test checks the README). Every refusal is one line and exit 1; bad arguments
// print the usage and exit 2; nothing prints a stack trace.
// This entry stays light: each command's work is in commands/<group>.ts, loaded only when that
// command runs, so `--help` loads no database, Markdown, zod or Sentry code, and `page publish`
// loads the page store and what it imports, nothing for other commands. Most of what is left
// is the store's own imports (zod, markdown-it): `bun bench/cli.ts` shows it.
// It is a little over 400 lines because the table is: one entry per command (its arguments,
// options, database mode and loader), read top to bottom, is clearer than the table split.

import { existsSync } from 'node:fs';
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { Database } from '../lib/data/db';
import { isDatabaseBusy, isDatabaseUnavailable } from '../lib/data/db-errors';
import { CliError, type CliIo, type Parsed, type Run, UsageError } from './command';
import { askPasswordOnTerminal, fileSystemIo, readPasswordLine, terminalProgress } from './io';

export type { CliIo };
export { fileSystemIo };

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
  /**
   * Makes DATABASE_URL's SQLite file when it is not there. Only the commands that set a site
   * up do (`db migrate`, `db seed`, `db restore`, and `editor add`: the README's first step,
   * before the first start); any other command would act on an empty site a typo made.
   */
  createsDatabase?: true;
  /** Its work, imported when it is the command that runs. */
  load: () => Promise<Run>;
};

export const COMMANDS: readonly Command[] = [
  {
    name: 'db migrate',
    summary: 'apply pending migrations (the server also does this at start)',
    database: 'as-is',
    createsDatabase: true,
    load: async () => (await import('./commands/db')).dbMigrate,
  },
  {
    name: 'db seed',
    summary: 'add the demo content to an empty database',
    createsDatabase: true,
    load: async () => (await import('./commands/db')).dbSeed,
  },
  {
    name: 'db backup',
    args: '<file>',
    positionals: 1,
    summary: 'write a consistent copy of a SQLite database (safe while serving)',
    load: async () => (await import('./commands/backup')).dbBackup,
  },
  {
    name: 'db restore',
    args: '<file>',
    positionals: 1,
    summary: 'replace a SQLite database with a backup (stop the server first)',
    database: 'as-is',
    createsDatabase: true,
    load: async () => (await import('./commands/backup')).dbRestore,
  },
  {
    name: 'db copy',
    args: '<from-url> <to-url>',
    positionals: 2,
    summary:
      'copy a whole site between databases (SQLite ⇄ PostgreSQL) into an empty one; prints the counts',
    database: 'none',
    load: async () => (await import('./commands/db')).dbCopy,
  },
  {
    name: 'export',
    args: '<dir>',
    positionals: 1,
    summary: 'write every page as Markdown with front matter',
    load: async () => (await import('./commands/backup')).exportPages,
  },
  {
    name: 'import',
    args: '<dir>',
    positionals: 1,
    summary:
      'read pages from Markdown files; every file is checked first, and one bad file imports none',
    load: async () => (await import('./commands/backup')).importPages,
  },
  {
    name: 'editor add',
    args: '<email> [--role <role>]',
    positionals: 1,
    options: { role: { type: 'string' } },
    summary:
      'create an editor (the first is the Owner, others Administrators unless --role), or reset their password (ends their sessions, share links and second factors); asks for the password',
    createsDatabase: true,
    load: async () => (await import('./commands/editor')).editorAdd,
  },
  {
    name: 'editor role',
    args: '<email> <role>',
    positionals: 2,
    summary:
      'give an editor a role: contributor, author, editor, administrator, or owner (hands the site over; the Owner before becomes an Administrator)',
    load: async () => (await import('./commands/editor')).editorRole,
  },
  {
    name: 'editor list',
    summary: 'every editor, their role, when they were added, and how many sessions are open',
    load: async () => (await import('./commands/editor')).editorList,
  },
  {
    name: 'editor remove',
    args: '<email>',
    positionals: 1,
    summary: 'remove an editor, end their sessions and revoke their share links',
    load: async () => (await import('./commands/editor')).editorRemove,
  },
  {
    name: 'editor sessions revoke',
    args: '<email> [--keep-links]',
    positionals: 1,
    options: { 'keep-links': { type: 'boolean' } },
    summary: 'sign an editor out everywhere and revoke their share links (unless --keep-links)',
    load: async () => (await import('./commands/editor')).editorSessionsRevoke,
  },
  {
    name: 'audit',
    args: '[--since <when>] [--json]',
    options: { since: { type: 'string' }, json: { type: 'boolean' } },
    summary:
      'the audit trail, oldest first: who signed in, published, changed roles or settings, shared or uploaded, and from where; --since 2026-01-31 or 30d, --json prints JSON lines',
    load: async () => (await import('./commands/audit')).auditList,
  },
  {
    name: 'page list',
    args: '[--json]',
    options: { json: { type: 'boolean' } },
    summary: 'every page with its state: published, draft-only, or published with changes',
    load: async () => (await import('./commands/page')).pageList,
  },
  {
    name: 'page put',
    args: '<slug> --title T --body-file F [--summary S] [--kind K] [--topics T] [--authors A] [--publish]',
    positionals: 1,
    options: {
      title: { type: 'string' },
      'body-file': { type: 'string' },
      summary: { type: 'string' },
      kind: { type: 'string' },
      topics: { type: 'string' },
      authors: { type: 'string' },
      publish: { type: 'boolean' },
    },
    summary:
      "create or update a page's draft from a Markdown file, optionally publishing it; --kind post or page, --topics 'A, B' as in the editor, --authors ada,grace by address (left out: kept)",
    load: async () => (await import('./commands/page')).pagePut,
  },
  {
    name: 'page publish',
    args: '<slug>',
    positionals: 1,
    summary: "publish the page's latest draft",
    load: async () => (await import('./commands/page')).pagePublish,
  },
  {
    name: 'page unpublish',
    args: '<slug>',
    positionals: 1,
    summary: 'take the page down (its text is kept as a draft)',
    load: async () => (await import('./commands/page')).pageUnpublish,
  },
  {
    name: 'page schedule',
    args: '<slug> <time>',
    positionals: 2,
    summary:
      "publish the page's draft at a time (ISO 8601: 2026-12-01T09:00+01:00; no zone means UTC)",
    load: async () => (await import('./commands/page')).pageSchedule,
  },
  {
    name: 'page unschedule',
    args: '<slug>',
    positionals: 1,
    summary: "cancel the page's scheduled publish",
    load: async () => (await import('./commands/page')).pageUnschedule,
  },
  {
    name: 'page publish-due',
    args: '',
    summary:
      'publish every page whose scheduled time has passed (servers do this themselves; for a site with none running)',
    load: async () => (await import('./commands/page')).pagePublishDue,
  },
  {
    name: 'media refresh',
    args: '',
    summary:
      'make the image sizes this version makes for images kept before it, and offer them on every page',
    load: async () => (await import('./commands/media')).mediaRefresh,
  },
  {
    name: 'redirect list',
    args: '[--renames]',
    options: { renames: { type: 'boolean' } },
    summary: "editors' redirects (status, from, to); --renames adds renamed pages' old addresses",
    load: async () => (await import('./commands/redirect')).redirectList,
  },
  {
    name: 'redirect add',
    args: '<from> <to> [--temporary] [--replace]',
    positionals: 2,
    options: { temporary: { type: 'boolean' }, replace: { type: 'boolean' } },
    summary:
      'redirect an address to a page (/slug) or another site (https://…); 301, or 302 with --temporary',
    load: async () => (await import('./commands/redirect')).redirectAdd,
  },
  {
    name: 'redirect remove',
    args: '<from>',
    positionals: 1,
    summary: 'remove the redirect from an address',
    load: async () => (await import('./commands/redirect')).redirectRemove,
  },
  {
    name: 'redirect export',
    summary: 'print every redirect as CSV (from,to,status)',
    load: async () => (await import('./commands/redirect')).redirectExport,
  },
  {
    name: 'redirect import',
    args: '<file.csv>',
    positionals: 1,
    summary:
      'add or replace redirects from a CSV file (from,to,status); one refused line imports none',
    load: async () => (await import('./commands/redirect')).redirectImport,
  },
  {
    name: 'webhook add',
    args: '<url> --events <a,b>',
    positionals: 1,
    options: { events: { type: 'string' } },
    summary:
      'send signed webhooks to a URL for these events (page.published, page.updated, page.unpublished, page.deleted, page.scheduled_publish_failed, settings.changed); prints its secret once',
    load: async () => (await import('./commands/webhook')).webhookAdd,
  },
  {
    name: 'webhook list',
    summary: 'the webhooks (at most 100): id, on or off (and why), URL, events',
    load: async () => (await import('./commands/webhook')).webhookList,
  },
  {
    name: 'webhook remove',
    args: '<id>',
    positionals: 1,
    summary: 'remove a webhook and its delivery log',
    load: async () => (await import('./commands/webhook')).webhookRemove,
  },
  {
    name: 'webhook deliveries',
    args: '<id>',
    positionals: 1,
    summary:
      "a webhook's last 50 deliveries, newest first: event, state, status, attempts, latency, next retry, answer",
    load: async () => (await import('./commands/webhook')).webhookDeliveries,
  },
  {
    name: 'webhook redeliver',
    args: '<delivery-id>',
    positionals: 1,
    summary: 'send a delivered or given-up delivery again (same webhook-id)',
    load: async () => (await import('./commands/webhook')).webhookRedeliver,
  },
  {
    name: 'api-key add',
    args: '<name>',
    positionals: 1,
    summary:
      'make a content API key (a higher rate limit); prints it once, on stdout: keep it then',
    load: async () => (await import('./commands/api-key')).apiKeyAdd,
  },
  {
    name: 'api-key list',
    summary: 'content API keys: id, prefix, name, who made it and when, last used or revoked',
    load: async () => (await import('./commands/api-key')).apiKeyList,
  },
  {
    name: 'api-key revoke',
    args: '<id-or-prefix>',
    positionals: 1,
    summary: 'revoke a content API key (requests with it are refused within seconds)',
    load: async () => (await import('./commands/api-key')).apiKeyRevoke,
  },
  {
    name: 'preview-link list',
    args: '[<slug>]',
    positionals: 1,
    optional: true,
    summary: "open share links (every page's, or one page's): id, page, expiry, who made it",
    load: async () => (await import('./commands/preview-link')).previewLinkList,
  },
  {
    name: 'preview-link revoke',
    args: '<id>',
    positionals: 1,
    summary: 'revoke a share link (ids from `preview-link list`)',
    load: async () => (await import('./commands/preview-link')).previewLinkRevoke,
  },
  {
    name: 'preview-link',
    args: '<slug> [--ttl 24h]',
    positionals: 1,
    options: { ttl: { type: 'string' } },
    summary: "print a read-only link to the page's draft, for at most 7 days (s, m, h, d)",
    load: async () => (await import('./commands/preview-link')).previewLinkCreate,
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

/** What `--help` (or `-h`, `help`) prints, or null when argv asks for something else. */
function helpFor(argv: string[]): string | null {
  if (!(argv.includes('--help') || argv.includes('-h') || argv[0] === 'help')) return null;
  return argv.includes('--markdown') ? `${commandTableMarkdown()}\n` : usageText();
}

/**
 * Runs one command. `openDb` opens DATABASE_URL's database (not migrated); it is called only
 * for commands that use it, so `db copy` and `--help` work whatever DATABASE_URL says.
 * `create` says whether the command may make a SQLite file that is not there.
 */
export async function runCli(
  argv: string[],
  openDb: (options: { create: boolean }) => Promise<Database>,
  io: CliIo,
): Promise<number> {
  const help = helpFor(argv);
  if (help !== null) {
    io.stdout(help);
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
    // The command's module loads while the database opens (a PostgreSQL connection waits on
    // the network, the import on the CPU).
    const [run, db] = await Promise.all([
      found.command.load(),
      use === 'none' ? null : openDb({ create: found.command.createsDatabase === true }),
    ]);
    if (db && use === 'migrated') {
      const { migrate } = await import('../lib/data/db');
      await migrate(db);
    }
    await run(args, { db: db as Database, io });
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`folio: ${error.message}\n\n${usageText()}`);
      return 2;
    }
    io.stderr(`folio: ${await describeRefusal(error)}\n`);
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

/** The name of the PostgreSQL database DATABASE_URL names when the server has none by it. */
function missingPostgresDatabase(error: unknown): string | null {
  const { errno, message } = (error ?? {}) as { errno?: unknown; message?: unknown };
  if (errno !== '3D000') return null; // invalid_catalog_name
  return /database "(.*)" does not exist/.exec(String(message))?.[1] ?? '?';
}

/** One line for a refusal: what went wrong in words, never a stack trace. */
async function describeRefusal(error: unknown): Promise<string> {
  if (error instanceof CliError) return error.message;
  // Loaded already when the page store refused; only a refusal pays for it otherwise.
  const { isContentError } = await import('../lib/content/content');
  if (isContentError(error)) return error.message;
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
  const missing = missingPostgresDatabase(error);
  if (missing !== null)
    return `no database "${missing}" on the PostgreSQL server: create it (createdb ${missing}), then run \`bun run folio db migrate\``;
  const fileProblem = FILE_PROBLEMS[String(code)];
  if (fileProblem) return typeof file === 'string' ? `${file}: ${fileProblem}` : fileProblem;
  return `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}

if (import.meta.main) {
  // The usage is answered before the environment is read: it needs no database, and reading
  // DATABASE_URL loads zod and the database module (half of --help's time before).
  const help = helpFor(Bun.argv.slice(2));
  if (help !== null) {
    process.stdout.write(help);
    process.exit(0);
  }
  const { getEnv } = await import('../lib/runtime/env');
  const { engineOf, openDatabase, sqliteFileOf } = await import('../lib/data/db');
  let env: ReturnType<typeof getEnv>;
  try {
    env = getEnv();
  } catch (error) {
    process.stderr.write(`folio: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  // A SQLite file that is not there is made only by the commands that set a site up (so
  // `editor add` works before the first start, and says it made one); any other command
  // refuses it, creating nothing: a mistyped path would "succeed" against an empty site.
  const sqliteFile =
    engineOf(env.DATABASE_URL) === 'sqlite' ? sqliteFileOf(env.DATABASE_URL) : null;
  const newFile = sqliteFile !== null && sqliteFile !== ':memory:' && !existsSync(sqliteFile);
  // Opened as it is: `db migrate` reports what it applies; other commands migrate first.
  const code = await runCli(
    Bun.argv.slice(2),
    async ({ create }) => {
      if (newFile && !create)
        throw new CliError(
          `no database at ${sqliteFile}: run \`bun run folio db migrate\` (or \`bun run start\`) to create one`,
        );
      return openDatabase(env.DATABASE_URL, { migrate: false });
    },
    {
      ...fileSystemIo,
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      readPassword: () => (process.stdin.isTTY ? askPasswordOnTerminal() : readPasswordLine()),
      progress: process.stderr.isTTY ? terminalProgress() : undefined,
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
