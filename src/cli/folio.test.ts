import type { Database } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createContentStore } from '../lib/content';
import { openDatabase } from '../lib/db';
import { SEED_DRAFT_MARKERS, seedDemoContent } from '../lib/seed';
import { fileSystemIo, runCli } from './folio';

function harness(
  files: Record<string, string> = {},
  stdin = '',
  {
    db = openDatabase('sqlite::memory:'),
    databasePath = ':memory:',
  }: { db?: Database; databasePath?: string } = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const run = (...argv: string[]) =>
    runCli(argv, db, {
      ...fileSystemIo,
      databasePath,
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      readStdin: async () => stdin,
      readFile: async (path) => {
        const content = files[path];
        if (content === undefined) throw new Error(`no file ${path}`);
        return content;
      },
      siteUrl: 'https://folio.example',
    });
  return { run, out, err, db };
}

describe('folio CLI', () => {
  test('page put, publish, list and list --json', async () => {
    const cli = harness({ 'p.md': '# Hello' });
    expect(await cli.run('page', 'put', 'hello', '--title', 'Hello', '--body-file', 'p.md')).toBe(
      0,
    );
    expect(await cli.run('page', 'list', '--json')).toBe(0);
    expect(JSON.parse(cli.out.at(-1) ?? '[]')).toEqual([
      expect.objectContaining({ slug: 'hello', state: 'draft-only' }),
    ]);
    expect(await cli.run('page', 'publish', 'hello')).toBe(0);
    expect(await cli.run('page', 'list')).toBe(0);
    expect(cli.out.at(-1)).toContain('published');
    expect(await cli.run('page', 'unpublish', 'hello')).toBe(0);
  });

  test('db seed, db migrate, editor add, preview-link', async () => {
    const cli = harness({}, 'a long enough password\n');
    expect(await cli.run('db', 'migrate')).toBe(0);
    expect(await cli.run('db', 'seed')).toBe(0);
    expect(await cli.run('editor', 'add', 'ed@example.com')).toBe(0);
    expect(await cli.run('preview-link', 'upcoming-feature', '--ttl', '2h')).toBe(0);
    expect(cli.out.at(-1)).toMatch(
      /^https:\/\/folio\.example\/preview\/upcoming-feature\?share=[\w-]+\.[\w-]+\n$/,
    );
  });

  test('bad arguments print usage and exit 2; refused operations exit 1', async () => {
    const cli = harness();
    expect(await cli.run()).toBe(2);
    expect(await cli.run('page', 'frob')).toBe(2);
    expect(await cli.run('page', 'put', 'x')).toBe(2);
    expect(await cli.run('page', 'list', '--bogus')).toBe(2);
    expect(await cli.run('preview-link', 'x', '--ttl', '3w')).toBe(2);
    expect(cli.err.join('')).toContain('Usage: bun run folio');
    expect(await cli.run('page', 'publish', 'missing')).toBe(1);
    expect(await cli.run('preview-link', 'missing')).toBe(1);
  });
});

describe('backup, restore, export and import', () => {
  const tmp = () => mkdtempSync(path.join(tmpdir(), 'folio-cli-'));

  test('a backup restores the content exactly, and junk is refused', async () => {
    const dir = tmp();
    const dbPath = path.join(dir, 'folio.db');
    const db = openDatabase(`sqlite:${dbPath}`);
    seedDemoContent(createContentStore(db));
    const backup = path.join(dir, 'backup.db');
    const cli = harness({}, '', { db, databasePath: dbPath });
    expect(await cli.run('db', 'backup', backup)).toBe(0);
    expect(await cli.run('db', 'backup', backup)).toBe(1);
    createContentStore(db).discardDraft('upcoming-feature');
    writeFileSync(path.join(dir, 'junk.db'), 'not a database');
    expect(await cli.run('db', 'restore', path.join(dir, 'junk.db'))).toBe(1);
    expect(await cli.run('db', 'restore', backup)).toBe(0);
    const restored = createContentStore(openDatabase(`sqlite:${dbPath}`));
    expect(restored.getPage('upcoming-feature', { draft: true })?.bodyMarkdown).toContain(
      SEED_DRAFT_MARKERS.draftOnlyPage,
    );
  });

  test('export then import into an empty database gives the same pages and states', async () => {
    const source = createContentStore(openDatabase('sqlite::memory:'));
    seedDemoContent(source);
    const dir = tmp();
    const sourceDb = openDatabase('sqlite::memory:');
    seedDemoContent(createContentStore(sourceDb));
    const cliSource = harness({}, '', { db: sourceDb });
    expect(await cliSource.run('export', dir)).toBe(0);
    expect(readdirSync(dir)).toContain('release-notes.draft.md');
    const target = openDatabase('sqlite::memory:');
    const cliTarget = harness({}, '', { db: target });
    expect(await cliTarget.run('import', dir)).toBe(0);
    const imported = createContentStore(target);
    const states = (store: typeof imported) =>
      store.listAll().map((page) => [page.slug, page.state]);
    expect(states(imported).sort()).toEqual(
      states(source)
        .filter(([slug]) => slug !== 'style-guide')
        .sort(),
    );
    expect(imported.getPage('release-notes', { draft: false })?.bodyMarkdown).not.toContain(
      SEED_DRAFT_MARKERS.changedPage,
    );
    expect(imported.getPage('release-notes', { draft: true })?.bodyMarkdown).toContain(
      SEED_DRAFT_MARKERS.changedPage,
    );
  });

  test('import reports every bad file and imports none', async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'good.md'), '---\ntitle: "Good"\nsummary: ""\n---\nFine.');
    writeFileSync(path.join(dir, 'Bad Name.md'), '---\ntitle: "x"\n---\n');
    writeFileSync(path.join(dir, 'no-front-matter.md'), 'just text');
    writeFileSync(path.join(dir, 'empty-title.md'), '---\ntitle: ""\n---\nbody');
    writeFileSync(path.join(dir, 'preview.md'), '---\ntitle: "Reserved"\n---\nbody');
    const db = openDatabase('sqlite::memory:');
    const cli = harness({}, '', { db });
    expect(await cli.run('import', dir)).toBe(1);
    const report = cli.err.join('');
    for (const name of ['Bad Name.md', 'no-front-matter.md', 'empty-title.md', 'preview.md'])
      expect(report).toContain(name);
    expect(report).not.toContain('good.md');
    expect(createContentStore(db).pageCount()).toBe(0);
  });
});
