// The `folio` CLI: content and database chores against the database named by DATABASE_URL.
import type { Database } from 'bun:sqlite';
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { ContentError, type ContentStore, createContentStore } from '../lib/content';
import { getDatabase, migrate } from '../lib/db';
import { addEditor } from '../lib/editors';
import { createPreviewToken, parseTtl, previewLinkPath } from '../lib/preview-links';
import { siteSecret } from '../lib/secrets';
import { seedDemoContent } from '../lib/seed';

export const USAGE = `Usage: bun run folio <command>

  db migrate                          apply pending migrations
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
};

class UsageError extends Error {}

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
    if (error instanceof ContentError) {
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
  const { getEnv } = await import('../lib/env');
  const code = await runCli(Bun.argv.slice(2), getDatabase(), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: () => Bun.stdin.text(),
    readFile: (path) => Bun.file(path).text(),
    siteUrl: getEnv().SITE_URL ?? `http://localhost:${getEnv().PORT}`,
  });
  process.exit(code);
}
