// The `folio` CLI: content and database chores against the database named by DATABASE_URL.
import { type Database, Database as SqliteDatabase } from 'bun:sqlite';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { ContentError, type ContentStore, createContentStore } from '../lib/content';
import { type ContentFile, exportContent, importContent } from '../lib/content-files';
import { getDatabase, migrate } from '../lib/db';
import { addEditor } from '../lib/editors';
import { createPreviewToken, parseTtl, previewLinkPath } from '../lib/preview-links';
import { siteSecret } from '../lib/secrets';
import { seedDemoContent } from '../lib/seed';

export const USAGE = `Usage: bun run folio <command>

  db migrate                          apply pending migrations
  db backup <file>                    write a consistent copy of the database (safe while serving)
  db restore <file>                   replace the database with a backup (stop the server first)
  export <dir>                        write every page as Markdown with front matter
  import <dir>                        read pages from Markdown files; all or nothing
  db seed                             add the demo content to an empty database
  editor add <email>                  create an editor (or reset their password); password on stdin
  page list [--json]                  list every page and its state
  page put <slug> --title T --body-file F [--summary S] [--publish]
                                      create or update a page's draft from a Markdown file
  page publish <slug>                 publish the page's latest draft
  page unpublish <slug>               take the page down (its text is kept as a draft)
  preview-link <slug> [--ttl 24h]     print a signed, expiring, read-only preview URL (s, m, h, d)
`;

export type CliIo = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  readFile: (path: string) => Promise<string>;
  siteUrl: string;
  databasePath: string;
  exists: (path: string) => Promise<boolean>;
  writeFiles: (dir: string, files: ContentFile[]) => Promise<void>;
  readDir: (dir: string) => Promise<ContentFile[]>;
  replaceDatabase: (backup: string, target: string) => Promise<void>;
};

/** The real file system, for the command line (tests pass their own). */
export const fileSystemIo = {
  exists: (file: string) => Bun.file(file).exists(),
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

class UsageError extends Error {}
/** A refused operation: one line, exit 1. */
class CliError extends Error {}

/** Why a file is not a Folio database we can restore, or null when it is. */
function checkBackup(file: string): string | null {
  let backup: Database | undefined;
  try {
    backup = new SqliteDatabase(file, { readonly: true });
    const integrity = backup.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get();
    if (integrity?.integrity_check !== 'ok') return 'integrity check failed';
    const table = backup
      .query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
      .get();
    return table ? null : 'it has no Folio schema';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    backup?.close();
  }
}

function parse(args: string[], options: ParseArgsOptionsConfig) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function one(positionals: string[], what: string): string {
  if (positionals.length !== 1 || !positionals[0])
    throw new UsageError(`expected exactly one ${what}`);
  return positionals[0];
}

export async function runCli(argv: string[], db: Database, io: CliIo): Promise<number> {
  const store: ContentStore = createContentStore(db);
  const [group, action, ...rest] = argv;
  try {
    switch (`${group ?? ''} ${action ?? ''}`) {
      case 'db migrate': {
        parse(rest, {});
        const ran = migrate(db);
        io.stdout(
          ran.length ? `applied migrations: ${ran.join(', ')}\n` : 'database is up to date\n',
        );
        return 0;
      }
      case 'db backup': {
        const file = one(parse(rest, {}).positionals, 'file');
        if (await io.exists(file))
          throw new CliError(`${file} already exists; choose a new file name`);
        // VACUUM INTO reads one consistent snapshot while writers carry on (WAL mode).
        db.query('VACUUM INTO ?').run(file);
        io.stdout(`backed up to ${file}\n`);
        return 0;
      }
      case 'db restore': {
        const file = one(parse(rest, {}).positionals, 'file');
        const target = io.databasePath;
        if (target === ':memory:')
          throw new CliError('DATABASE_URL is in memory: nothing to restore into');
        const problem = checkBackup(file);
        if (problem) throw new CliError(`${file} is not a usable backup: ${problem}`);
        db.close();
        await io.replaceDatabase(file, target);
        io.stdout(`restored ${target} from ${file}\n`);
        return 0;
      }
      case 'db seed': {
        parse(rest, {});
        io.stdout(
          seedDemoContent(store)
            ? 'seeded demo content\n'
            : 'database already has pages; nothing seeded\n',
        );
        return 0;
      }
      case 'editor add': {
        const email = one(parse(rest, {}).positionals, 'email');
        const password = (await io.readStdin()).replace(/\r?\n$/, '');
        const editor = await addEditor(db, email, password);
        io.stdout(`editor ${editor.email} ready\n`);
        return 0;
      }
      case 'page list': {
        const { values } = parse(rest, { json: { type: 'boolean' } });
        const pages = store.listAll();
        if (values.json) io.stdout(`${JSON.stringify(pages, null, 2)}\n`);
        else
          for (const page of pages)
            io.stdout(`${page.slug.padEnd(32)} ${page.state.padEnd(10)} ${page.title}\n`);
        return 0;
      }
      case 'page put': {
        const { values, positionals } = parse(rest, {
          title: { type: 'string' },
          'body-file': { type: 'string' },
          summary: { type: 'string' },
          publish: { type: 'boolean' },
        });
        const slug = one(positionals, 'slug');
        if (typeof values.title !== 'string' || typeof values['body-file'] !== 'string') {
          throw new UsageError('page put needs --title and --body-file');
        }
        const body = await io.readFile(values['body-file']);
        const summary = typeof values.summary === 'string' ? values.summary : '';
        store.putPage(
          { slug, title: values.title, summary, body },
          { publish: values.publish === true, editor: 'cli' },
        );
        io.stdout(`${slug}: ${values.publish ? 'saved and published' : 'draft saved'}\n`);
        return 0;
      }
      case 'page publish': {
        const slug = one(parse(rest, {}).positionals, 'slug');
        store.publish(slug, { editor: 'cli' });
        io.stdout(`${slug}: published\n`);
        return 0;
      }
      case 'page unpublish': {
        const slug = one(parse(rest, {}).positionals, 'slug');
        store.unpublish(slug, { editor: 'cli' });
        io.stdout(`${slug}: unpublished\n`);
        return 0;
      }
      default: {
        if (group === 'export') {
          const dir = one(
            parse([action ?? '', ...rest].filter(Boolean), {}).positionals,
            'directory',
          );
          const files = exportContent(store);
          await io.writeFiles(dir, files);
          io.stdout(`exported ${files.length} files to ${dir}\n`);
          return 0;
        }
        if (group === 'import') {
          const dir = one(
            parse([action ?? '', ...rest].filter(Boolean), {}).positionals,
            'directory',
          );
          const files = await io.readDir(dir);
          const result = importContent(db, store, files);
          if (result.problems.length > 0) {
            io.stderr(
              `folio: nothing imported; fix these files first:\n${result.problems.map((p) => `  ${p}`).join('\n')}\n`,
            );
            return 1;
          }
          io.stdout(`imported ${result.imported} files from ${dir}\n`);
          return 0;
        }
        if (group === 'preview-link') {
          const { values, positionals } = parse([action ?? '', ...rest].filter(Boolean), {
            ttl: { type: 'string' },
          });
          const slug = one(positionals, 'slug');
          const ttlSeconds = parseTtl(typeof values.ttl === 'string' ? values.ttl : '24h');
          if (ttlSeconds === null)
            throw new UsageError('--ttl must be a number with a unit: s, m, h or d (e.g. 24h)');
          if (!store.getPage(slug, { draft: true }))
            throw new ContentError('not-found', `There is no page “${slug}”.`);
          const token = createPreviewToken(siteSecret(db), slug, { ttlSeconds });
          io.stdout(`${io.siteUrl}${previewLinkPath(slug, token)}\n`);
          return 0;
        }
        throw new UsageError(
          group
            ? `unknown command: ${[group, action].filter(Boolean).join(' ')}`
            : 'no command given',
        );
      }
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`folio: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ContentError || error instanceof CliError) {
      io.stderr(`folio: ${error.message}\n`);
      return 1;
    }
    if (error instanceof Error && error.name === 'ZodError') {
      io.stderr(
        `folio: ${JSON.parse(error.message)
          .map((issue: { message: string }) => issue.message)
          .join(' ')}\n`,
      );
      return 1;
    }
    throw error;
  }
}

if (import.meta.main) {
  const { databasePathFromUrl, getEnv } = await import('../lib/env');
  const code = await runCli(Bun.argv.slice(2), getDatabase(), {
    ...fileSystemIo,
    databasePath: databasePathFromUrl(getEnv().DATABASE_URL),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: () => Bun.stdin.text(),
    readFile: (path) => Bun.file(path).text(),
    siteUrl: getEnv().SITE_URL ?? `http://localhost:${getEnv().PORT}`,
  });
  process.exit(code);
}
