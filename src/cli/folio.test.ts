import { afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createThrowAwayDatabase, openTestDatabase, TEST_ENGINE } from '../../tests/databases';
import { createContentStore } from '../lib/content/content';
import { SEED_DRAFT_MARKERS, seedDemoContent } from '../lib/content/seed';
import { type Database, openDatabase } from '../lib/data/db';
import { migrations } from '../lib/data/migrations';
import { commandTableMarkdown, fileSystemIo, runCli } from './folio';

// Each test's database is a new one on the run's engine (FOLIO_TEST_ENGINE).
const opened: Awaited<ReturnType<typeof openTestDatabase>>[] = [];
async function testDatabase() {
  const db = await openTestDatabase();
  opened.push(db);
  return db;
}
afterEach(async () => {
  for (const db of opened.splice(0)) await db.dispose().catch(() => undefined);
});

/** A plain PNG of this size, processed and kept as an upload is. */
async function uploadPlainImage(db: Database, width: number, height: number, alt: string) {
  const { default: sharp } = await import('sharp');
  const { createMediaStore, processImage } = await import('../lib/media/media');
  const png = await sharp({ create: { width, height, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  return createMediaStore(db).add(await processImage(new Uint8Array(png)), {
    alt,
    filename: 'plain.png',
  });
}

async function harness(
  files: Record<string, string> = {},
  stdin = '',
  { db }: { db?: Database } = {},
) {
  const database = db ?? (await testDatabase());
  const out: string[] = [];
  const err: string[] = [];
  const run = (...argv: string[]) =>
    runCli(argv, async () => database, {
      ...fileSystemIo,
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      readPassword: async () => stdin.split('\n')[0] ?? '',
      exists: async (file) => file in files || fileSystemIo.exists(file),
      readFile: async (path) => files[path] ?? Bun.file(path).text(),
      siteUrl: 'https://folio.example',
    });
  return { run, out, err, db: database };
}

describe('folio CLI', () => {
  test('page put, publish, list and list --json', async () => {
    const cli = await harness({ 'p.md': '# Hello' });
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

  test('roles: the first editor owns the site; add --role, role, list; the Owner is handed over, never dropped', async () => {
    const cli = await harness({}, 'a long enough password\n');
    expect(await cli.run('editor', 'add', 'first@example.com')).toBe(0);
    expect(cli.out.at(-1)).toBe('editor first@example.com added as Owner\n');
    expect(await cli.run('editor', 'add', 'admin@example.com')).toBe(0);
    expect(cli.out.at(-1)).toBe('editor admin@example.com added as Administrator\n');
    expect(await cli.run('editor', 'add', 'new@example.com', '--role', 'Contributor')).toBe(0);
    expect(cli.out.at(-1)).toBe('editor new@example.com added as Contributor\n');
    // Nobody is added as a second Owner, nor with a role there is not.
    expect(await cli.run('editor', 'add', 'x@example.com', '--role', 'owner')).toBe(1);
    expect(await cli.run('editor', 'add', 'x@example.com', '--role', 'boss')).toBe(1);
    expect(cli.err.at(-1)).toBe(
      'folio: there is no role “boss”: use one of contributor, author, editor, administrator, owner\n',
    );
    expect(await cli.run('editor', 'role', 'new@example.com', 'author')).toBe(0);
    expect(cli.out.at(-1)).toBe('new@example.com is Author now (was Contributor)\n');
    // The Owner cannot be demoted or removed: the site would have none.
    expect(await cli.run('editor', 'role', 'first@example.com', 'editor')).toBe(1);
    expect(await cli.run('editor', 'remove', 'first@example.com')).toBe(1);
    expect(cli.err.at(-1)).toContain('The Owner cannot be removed.');
    // Handing it over makes the Owner before an Administrator, in the same commit.
    expect(await cli.run('editor', 'role', 'admin@example.com', 'owner')).toBe(0);
    expect(cli.out.at(-1)).toBe(
      'admin@example.com is Owner now (was Administrator); first@example.com is an Administrator now\n',
    );
    expect(await cli.run('editor', 'list')).toBe(0);
    const listed = cli.out.slice(-3).map((line) => line.split(/\s+/).slice(0, 2).join(' '));
    expect(listed).toEqual([
      'admin@example.com Owner',
      'first@example.com Administrator',
      'new@example.com Author',
    ]);
    expect(await cli.run('editor', 'role', 'nobody@example.com', 'author')).toBe(1);
    expect(cli.err.at(-1)).toBe('folio: there is no editor nobody@example.com\n');
  });

  // db seed makes the demo's photographs' sizes and colours its code: seconds on a loaded
  // machine (PostgreSQL, a parallel run), past bun's 5 s default.
  test('db seed, db migrate, editor add, preview-link', async () => {
    const cli = await harness({}, 'a long enough password\n');
    expect(await cli.run('db', 'migrate')).toBe(0);
    expect(cli.out.at(-1)).toBe('nothing to do: the database is up to date\n');
    expect(await cli.run('db', 'seed')).toBe(0);
    expect(await cli.run('editor', 'add', 'ed@example.com')).toBe(0);
    expect(cli.out.at(-1)).toBe('editor ed@example.com added as Owner\n');
    expect(await cli.run('preview-link', 'upcoming-feature', '--ttl', '2h')).toBe(0);
    expect(cli.out.at(-1)).toMatch(
      /^https:\/\/folio\.example\/preview\/upcoming-feature\?share=[\w-]{43}\n$/,
    );
  }, 30_000);

  test('db migrate says what it applied', async () => {
    const made = await createThrowAwayDatabase();
    const blank = await openDatabase(made.url, { migrate: false });
    const cli = await harness({}, '', { db: blank });
    expect(await cli.run('db', 'migrate')).toBe(0);
    expect(cli.out.at(-1)).toBe(
      `applied ${migrations.length} migration(s): ${migrations.map((m) => `${m.id} ${m.name}`).join(', ')}\n`,
    );
    await blank.close();
    await made.drop();
  });

  test('bad arguments print usage and exit 2; refused operations say why in one line, exit 1', async () => {
    const cli = await harness();
    expect(await cli.run()).toBe(2);
    expect(await cli.run('page', 'frob')).toBe(2);
    expect(await cli.run('page', 'put', 'x')).toBe(2);
    expect(await cli.run('page', 'list', '--bogus')).toBe(2);
    expect(await cli.run('preview-link', 'x', '--ttl', '3w')).toBe(2);
    expect(cli.err.join('')).toContain('Usage: bun run folio');
    cli.err.length = 0;
    for (const argv of [
      ['page', 'publish', 'missing'],
      ['preview-link', 'missing'],
      ['page', 'put', 'x', '--title', 'X', '--body-file', '/nonexistent/body.md'],
      ['import', '/nonexistent/folder'],
      ['db', 'restore', '/nonexistent/backup.db'],
      ['editor', 'remove', 'nobody@example.com'],
      ['preview-link', 'revoke', '999'],
      ['import', '/etc/passwd'],
      ['page', 'put', 'x', '--title', 'X', '--body-file', '/tmp'],
    ]) {
      cli.err.length = 0;
      expect(await cli.run(...argv), argv.join(' ')).toBe(1);
      const said = cli.err.join('');
      expect(said.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(said).not.toMatch(/\bat \S+:\d+|Error:/);
    }
    cli.err.length = 0;
    expect(
      await cli.run('page', 'put', 'x', '--title', 'X', '--body-file', '/nonexistent/body.md'),
    ).toBe(1);
    expect(cli.err.join('')).toBe('folio: cannot read /nonexistent/body.md: no such file\n');
  });

  test('api-key add prints the key once; list shows its prefix; revoke by prefix, once', async () => {
    const cli = await harness();
    expect(await cli.run('api-key', 'add', 'Newsletter')).toBe(0);
    const key = cli.out.join('').trim();
    expect(key).toMatch(/^folio_[A-Za-z0-9_-]{43}$/);
    expect(cli.err.join('')).toContain('not shown again');
    const [row] = await cli.db.query<{ key_hash: string; created_by: string }>`
      SELECT key_hash, created_by FROM api_keys`;
    expect(row?.key_hash).toBe(new Bun.CryptoHasher('sha256').update(key).digest('hex'));
    expect(row?.created_by).toBe('cli');
    cli.out.length = 0;
    expect(await cli.run('api-key', 'list')).toBe(0);
    expect(cli.out.join('')).toContain(`${key.slice(0, 14)}…  Newsletter`);
    expect(cli.out.join('')).not.toContain(key);
    cli.out.length = 0;
    expect(await cli.run('api-key', 'revoke', key.slice(0, 10))).toBe(0);
    expect(cli.out.join('')).toContain('(Newsletter) revoked');
    cli.err.length = 0;
    for (const argv of [
      ['api-key', 'revoke', key.slice(0, 10)],
      ['api-key', 'revoke', '999'],
      ['api-key', 'revoke', 'folio_zzzz'],
    ]) {
      cli.err.length = 0;
      expect(await cli.run(...argv), argv.join(' ')).toBe(1);
      expect(cli.err.join('').trim().split('\n'), argv.join(' ')).toHaveLength(1);
    }
    for (const argv of [
      ['api-key', 'add', ' '],
      ['api-key', 'add', 'x'.repeat(101)],
      ['api-key', 'revoke', 'nonsense'],
      ['api-key', 'add'],
    ])
      expect(await cli.run(...argv), argv.join(' ')).toBe(2);
    const trail = await cli.db.query<{ action: string; address: string }>`
      SELECT action, address FROM audit_entries WHERE action LIKE 'api-key.%' ORDER BY id`;
    expect(trail).toEqual([
      { action: 'api-key.created', address: 'cli' },
      { action: 'api-key.revoked', address: 'cli' },
    ]);
  });

  test('--ttl beyond the limit states the limit', async () => {
    const cli = await harness();
    await cli.run('db', 'seed');
    expect(await cli.run('preview-link', 'about', '--ttl', '400d')).toBe(2);
    expect(cli.err.join('')).toContain(
      '--ttl 400d is too long: a preview link lasts at most 7 days',
    );
  });

  // Hostile pass: only the commands that set a site up may make a missing SQLite file; the
  // others are told not to, so a mistyped path is refused instead of "succeeding" empty.
  test('db migrate, db seed and editor add may create the database; content commands may not', async () => {
    const database = await testDatabase();
    const asked: Record<string, boolean> = {};
    const io = {
      ...fileSystemIo,
      stdout: () => {},
      stderr: () => {},
      readFile: (file: string) => Bun.file(file).text(),
      siteUrl: '',
    };
    for (const argv of [
      ['db', 'migrate'],
      ['db', 'seed'],
      ['editor', 'add', 'x@example.com'],
      ['page', 'list'],
      ['page', 'unpublish', 'about'],
      ['editor', 'list'],
      ['import', '/nonexistent-folder'],
    ])
      await runCli(
        argv,
        async ({ create }) => {
          asked[argv.slice(0, 2).join(' ')] = create;
          return database;
        },
        { ...io, readPassword: async () => 'a long enough passphrase' },
      );
    expect(asked).toEqual({
      'db migrate': true,
      'db seed': true,
      'editor add': true,
      'page list': false,
      'page unpublish': false,
      'editor list': false,
      'import /nonexistent-folder': false,
    });
  });

  test('--help prints the usage and exits 0', async () => {
    const cli = await harness();
    expect(await cli.run('--help')).toBe(0);
    expect(cli.out.join('')).toContain('Usage: bun run folio');
    expect(cli.err).toEqual([]);
  });

  test('editors: list, password reset ends sessions, sign out everywhere, remove', async () => {
    const cli = await harness({}, 'a long enough password\n');
    // The site's first editor is its Owner, who cannot be removed: ed is the second.
    await cli.run('editor', 'add', 'owner@example.com');
    await cli.run('editor', 'add', 'ed@example.com');
    const { createSession, getSession } = await import('../lib/editors/accounts');
    const [row] = await cli.db.query<{ id: number }>`
      SELECT id FROM editors WHERE email = 'ed@example.com'`;
    const editorId = Number(row?.id);
    const session = await createSession(cli.db.query, editorId);
    expect(await cli.run('editor', 'list')).toBe(0);
    // Listed by email: ed, then the Owner.
    expect(cli.out.at(-2)).toMatch(
      /^ed@example\.com\s+Administrator\s+added \S+\s+1 session\(s\)\n$/,
    );
    // Issue 24: a reset and a removal revoke the editor's share links, and say how many.
    const { createPreviewLink, checkPreviewLink } = await import('../lib/share-links/share-links');
    await createContentStore(cli.db).putPage({ slug: 's', title: 'S', summary: '', body: 'x' });
    const pageId = (await createContentStore(cli.db).getPage('s', { draft: true }))?.id ?? 0;
    const linkOf = async () =>
      (await createPreviewLink(cli.db, { pageId, createdBy: 'ed@example.com', ttlSeconds: 60 }))
        .token;
    const beforeReset = await linkOf();
    expect(await cli.run('editor', 'add', 'ed@example.com')).toBe(0);
    expect(cli.out.at(-1)).toBe(
      'password of ed@example.com reset (Administrator); 1 session(s) ended, 0 second factors (passkeys, authenticator app) removed and revoked 1 share link they made\n',
    );
    expect(await getSession(cli.db, session.id)).toBeNull();
    expect((await checkPreviewLink(cli.db, beforeReset)).ok).toBe(false);
    await createSession(cli.db.query, editorId);
    const kept = await linkOf();
    expect(await cli.run('editor', 'sessions', 'revoke', 'ed@example.com', '--keep-links')).toBe(0);
    expect(cli.out.at(-1)).toBe(
      '1 session(s) of ed@example.com ended; their share links still work\n',
    );
    expect((await checkPreviewLink(cli.db, kept)).ok).toBe(true);
    await createSession(cli.db.query, editorId);
    expect(await cli.run('editor', 'sessions', 'revoke', 'ed@example.com')).toBe(0);
    expect(cli.out.at(-1)).toBe(
      '1 session(s) of ed@example.com ended; revoked 1 share link they made\n',
    );
    expect((await checkPreviewLink(cli.db, kept)).ok).toBe(false);
    const beforeRemoval = [await linkOf(), await linkOf()];
    expect(await cli.run('editor', 'remove', 'ed@example.com')).toBe(0);
    expect(cli.out.at(-1)).toBe(
      'editor ed@example.com removed and revoked 2 share links they made\n',
    );
    for (const token of beforeRemoval)
      expect((await checkPreviewLink(cli.db, token)).ok).toBe(false);
    expect(await cli.run('editor', 'list')).toBe(0);
    expect(cli.out.at(-1)).toStartWith('owner@example.com ');
    // One line: ed is gone from the list.
    expect(cli.out.at(-2)).toStartWith('editor ed@example.com removed');
    const empty = await harness();
    expect(await empty.run('editor', 'list')).toBe(0);
    expect(empty.out.at(-1)).toContain('no editors yet');
  });

  test('share links: made, listed and revoked from the command line', async () => {
    const cli = await harness();
    await cli.run('db', 'seed');
    await cli.run('preview-link', 'about');
    await cli.run('preview-link', 'contact', '--ttl', '7d');
    expect(await cli.run('preview-link', 'list')).toBe(0);
    const listed = cli.out.slice(-2).join('');
    expect(listed).toContain('about');
    expect(listed).toContain('contact');
    expect(await cli.run('preview-link', 'list', 'about')).toBe(0);
    const id = /^\s*(\d+)\s+about/.exec(cli.out.at(-1) ?? '')?.[1];
    expect(id).toBeDefined();
    expect(await cli.run('preview-link', 'revoke', id ?? '')).toBe(0);
    expect(await cli.run('preview-link', 'list', 'about')).toBe(0);
    expect(cli.out.at(-1)).toBe('no open share links\n');
  });

  test('preview-link obeys the per-page cap: refused in one line, nothing made', async () => {
    const cli = await harness();
    await cli.run('db', 'seed');
    const { MAX_OPEN_LINKS_PER_PAGE } = await import('../lib/share-links/share-links');
    for (let i = 0; i < MAX_OPEN_LINKS_PER_PAGE; i++)
      expect(await cli.run('preview-link', 'about')).toBe(0);
    expect(await cli.run('preview-link', 'about')).toBe(1);
    expect(cli.err.at(-1)).toBe(
      `folio: no link made: This page already has ${MAX_OPEN_LINKS_PER_PAGE} open share links: revoke one first. (\`preview-link list\`, then \`preview-link revoke <id>\`)\n`,
    );
    const [row] = await cli.db.query<{
      n: number | string;
    }>`SELECT COUNT(*) AS n FROM preview_links`;
    expect(Number(row?.n)).toBe(MAX_OPEN_LINKS_PER_PAGE);
  });

  test('media refresh makes the sizes an image stored before them lacks, and its pages offer them', async () => {
    const cli = await harness();
    const store = createContentStore(cli.db);
    const { default: sharp } = await import('sharp');
    const { createMediaStore } = await import('../lib/media/media');
    const media = createMediaStore(cli.db);
    const image = await uploadPlainImage(cli.db, 1000, 500, 'A band');
    // As an image kept before 720 and the image's own width were made: only 480 and 960.
    await cli.db.query`
      DELETE FROM media_variants WHERE name LIKE '720.%' OR name LIKE '1600.%'`;
    await store.putPage(
      { slug: 'banded', title: 'Banded', summary: '', body: `![A band](/media/${image.hash})` },
      { publish: true },
    );
    await store.putPage({
      slug: 'banded',
      title: 'Banded',
      summary: '',
      body: `Draft.\n\n![A band](/media/${image.hash})`,
    });
    const published = async () => (await store.getPage('banded', { draft: false }))?.bodyHtml;
    expect(await published()).not.toContain('720.avif');

    expect(await cli.run('media', 'refresh')).toBe(0);
    expect(cli.out.at(-1)).toBe(
      'made 4 image file(s) for 1 image(s); updated the images of 2 page text(s)\n',
    );
    const html = (await published()) ?? '';
    expect(html).toContain(`/media/${image.hash}/720.avif 720w`);
    expect(html).toContain(`/media/${image.hash}/1600.avif 1000w`);
    expect((await store.getPage('banded', { draft: true }))?.bodyHtml).toContain('720.webp 720w');
    const made = await media.variant(image.hash, '720.avif');
    const meta = await sharp(made?.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['heif', 720, 360]);

    expect(await cli.run('media', 'refresh')).toBe(0);
    expect(cli.out.at(-1)).toBe(
      'every image has the sizes this version makes, and every page offers them\n',
    );
  });

  test('media refresh: an unreadable or missing original is one line each, the rest go on', async () => {
    const cli = await harness();
    const store = createContentStore(cli.db);
    const broken = await uploadPlainImage(cli.db, 1000, 500, 'Broken');
    const gone = await uploadPlainImage(cli.db, 1100, 500, 'Gone');
    const fine = await uploadPlainImage(cli.db, 1200, 500, 'Fine');
    await cli.db.query`DELETE FROM media_variants WHERE name LIKE '720.%'`;
    await cli.db.query`
      UPDATE media_variants SET data = ${new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])}
      WHERE name = 'original.png'
        AND media_id = (SELECT id FROM media WHERE hash = ${broken.hash})`;
    await cli.db.query`
      DELETE FROM media_variants WHERE name = 'original.png'
        AND media_id = (SELECT id FROM media WHERE hash = ${gone.hash})`;
    await store.putPage(
      { slug: 'fine', title: 'Fine', summary: '', body: `![Fine](/media/${fine.hash})` },
      { publish: true },
    );

    expect(await cli.run('media', 'refresh')).toBe(1);
    expect(cli.out.at(-1)).toBe(
      'made 2 image file(s) for 1 image(s); updated the images of 1 page text(s)\n',
    );
    expect(cli.err.join('')).toBe(
      [
        `folio: image ${broken.hash} (“plain.png”): its original cannot be read, so no sizes were made from it`,
        `folio: image ${gone.hash} (“plain.png”): its original is missing, so no sizes can be made from it`,
        'folio: 2 image(s) could not be given their sizes (above); their pages keep the sizes they had',
        '',
      ].join('\n'),
    );
    const html = (await store.getPage('fine', { draft: false }))?.bodyHtml ?? '';
    expect(html).toContain(`/media/${fine.hash}/720.avif 720w`);
  });

  test("media refresh changes only the images' sources: highlighted code stays as it was kept", async () => {
    const cli = await harness();
    const store = createContentStore(cli.db);
    const image = await uploadPlainImage(cli.db, 1300, 500, 'Wide');
    await cli.db.query`DELETE FROM media_variants WHERE name LIKE '720.%'`;
    const body = `![Wide](/media/${image.hash})\n\n\`\`\`ts\nconst answer: number = 42;\n\`\`\`\n`;
    await store.putPage({ slug: 'coded', title: 'Coded', summary: '', body }, { publish: true });
    // As a run stopped after making the sizes and before updating pages leaves it.
    const { createMediaStore } = await import('../lib/media/media');
    await createMediaStore(cli.db).refreshVariants();
    // As if the code had been coloured otherwise when it was saved: refresh must keep it.
    await cli.db.query`
      UPDATE revisions SET body_html = REPLACE(body_html, 'shiki', 'kept-as-saved')`;
    const before = (await store.getPage('coded', { draft: false }))?.bodyHtml ?? '';
    expect(before).not.toContain('720.avif');
    expect(before).toContain('kept-as-saved');

    expect(await cli.run('media', 'refresh')).toBe(0);
    expect(cli.out.at(-1)).toBe(
      'made 0 image file(s) for 0 image(s); updated the images of 1 page text(s)\n',
    );
    const after = (await store.getPage('coded', { draft: false }))?.bodyHtml ?? '';
    expect(after).toContain(`/media/${image.hash}/720.avif 720w`);
    const withoutSources = (html: string) => html.replace(/<source [^>]*>/g, '');
    expect(withoutSources(after)).toBe(withoutSources(before));
  });

  test("the README's table of commands is the one the CLI prints", async () => {
    const readme = await Bun.file(path.join(import.meta.dir, '../../README.md')).text();
    const upToDate = readme.includes(commandTableMarkdown());
    expect(upToDate, 'README.md: paste the output of `bun run folio --help --markdown`').toBe(true);
  });
});

describe('backup, restore, export and import', () => {
  const tmp = () => mkdtempSync(path.join(tmpdir(), 'folio-cli-'));

  test.if(TEST_ENGINE === 'sqlite')(
    'a backup restores the content exactly, and junk is refused',
    async () => {
      const dir = tmp();
      const url = `sqlite:${path.join(dir, 'folio.db')}`;
      const db = await openDatabase(url);
      await seedDemoContent(db, createContentStore(db));
      const backup = path.join(dir, 'backup.db');
      const cli = await harness({}, '', { db });
      expect(await cli.run('db', 'backup', backup)).toBe(0);
      expect(await cli.run('db', 'backup', backup)).toBe(1);
      await createContentStore(db).discardDraft('upcoming-feature');
      writeFileSync(path.join(dir, 'junk.db'), 'not a database');
      expect(await cli.run('db', 'restore', path.join(dir, 'junk.db'))).toBe(1);
      expect(await cli.run('db', 'restore', backup)).toBe(0);
      const reopened = await openDatabase(url);
      const restored = createContentStore(reopened);
      expect((await restored.getPage('upcoming-feature', { draft: true }))?.bodyMarkdown).toContain(
        SEED_DRAFT_MARKERS.draftOnlyPage,
      );
      await reopened.close();
    },
  );

  test.if(TEST_ENGINE === 'postgres')(
    'backup and restore name the PostgreSQL tools and db copy instead',
    async () => {
      const cli = await harness();
      expect(await cli.run('db', 'backup', '/tmp/never-written.db')).toBe(1);
      expect(cli.err.at(-1)).toContain('pg_dump');
      expect(await cli.run('db', 'restore', '/tmp/never-read.db')).toBe(1);
      expect(cli.err.at(-1)).toContain('pg_restore');
    },
  );

  test('export then import into an empty database gives the same pages and states', async () => {
    const sourceDb = await testDatabase();
    const source = createContentStore(sourceDb);
    await seedDemoContent(sourceDb, source);
    const dir = tmp();
    const cliSource = await harness({}, '', { db: sourceDb });
    expect(await cliSource.run('export', dir)).toBe(0);
    expect(readdirSync(dir)).toContain('release-notes.draft.md');
    const target = await testDatabase();
    const cliTarget = await harness({}, '', { db: target });
    expect(await cliTarget.run('import', dir)).toBe(0);
    const imported = createContentStore(target);
    const states = async (store: typeof imported) =>
      (await store.listAll()).map((page) => [page.slug, page.state]);
    expect((await states(imported)).sort()).toEqual((await states(source)).sort());
    expect((await imported.getPage('release-notes', { draft: false }))?.bodyMarkdown).not.toContain(
      SEED_DRAFT_MARKERS.changedPage,
    );
    expect((await imported.getPage('release-notes', { draft: true }))?.bodyMarkdown).toContain(
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
    const cli = await harness();
    expect(await cli.run('import', dir)).toBe(1);
    const report = cli.err.join('');
    for (const name of ['Bad Name.md', 'no-front-matter.md', 'empty-title.md', 'preview.md'])
      expect(report).toContain(name);
    expect(report).not.toContain('good.md');
    expect(await createContentStore(cli.db).pageCount()).toBe(0);
  });

  // Issue 24: the CLI's ways in are cleaned as the editor's are (clean-text.ts).
  test('import and page put clean a title of NUL, bidi overrides and zero-width characters', async () => {
    const dir = tmp();
    writeFileSync(
      path.join(dir, 'spoof.md'),
      '---\ntitle: "gpj.\\u202eexe\\u200b\\u0000"\nsummary: "S\\u0000"\n---\nBody\u0000.',
    );
    const cli = await harness({ 'p.md': 'Put\u0000 body' });
    expect(await cli.run('import', dir)).toBe(0);
    const store = createContentStore(cli.db);
    const imported = await store.getPage('spoof', { draft: true });
    expect([imported?.title, imported?.summary, imported?.bodyMarkdown]).toEqual([
      'gpj.exe',
      'S',
      'Body.',
    ]);
    expect(
      await cli.run('page', 'put', 'put', '--title', 'Put\u202e\u0000', '--body-file', 'p.md'),
    ).toBe(0);
    const put = await store.getPage('put', { draft: true });
    expect([put?.title, put?.bodyMarkdown]).toEqual(['Put', 'Put body']);
  });

  test('an import that fails part-way (a slug taken by another page) leaves nothing behind', async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'aaa.md'), '---\ntitle: "First"\n---\none');
    writeFileSync(path.join(dir, 'zzz.md'), '---\ntitle: ""\n---\nan empty title');
    const cli = await harness();
    expect(await cli.run('import', dir)).toBe(1);
    expect(await createContentStore(cli.db).pageCount()).toBe(0);
  });
});

describe('db copy', () => {
  test('moves a whole site to the other engine and back, with counts that match', async () => {
    const sqlite = await openTestDatabase('sqlite');
    const postgres = await openTestDatabase('postgres');
    const back = await openTestDatabase('sqlite');
    opened.push(sqlite, postgres, back);
    const store = createContentStore(sqlite);
    await seedDemoContent(sqlite, store);
    const { addEditor } = await import('../lib/editors/accounts');
    await addEditor(sqlite, 'ed@example.com', 'a long enough password');
    const { createPreviewLink } = await import('../lib/share-links/share-links');
    const page = await store.getPage('upcoming-feature', { draft: true });
    await createPreviewLink(sqlite, { pageId: page?.id ?? 0, createdBy: 'ed', ttlSeconds: 3600 });
    // An uploaded image: its bytes must survive both hops (SQLite BLOB ⇄ PostgreSQL BYTEA).
    const { createMediaStore } = await import('../lib/media/media');
    const image = await uploadPlainImage(sqlite, 40, 30, 'A square');
    const bytesOf = async (db: Database) =>
      [...((await createMediaStore(db).variant(image.hash, 'original.png'))?.data ?? [])].join();
    const cli = await harness({}, '', { db: sqlite });

    expect(await cli.run('db', 'copy', sqlite.url, postgres.url)).toBe(0);
    const report = cli.out.join('');
    for (const table of [
      'pages',
      'revisions',
      'drafts',
      'slug_history',
      'editors',
      'preview_links',
      'media',
      'media_variants',
    ])
      expect(report).toMatch(new RegExp(`\\n${table}\\s+(\\d+)\\s+\\1\\n`));
    expect(await cli.run('db', 'copy', postgres.url, back.url)).toBe(0);

    const snapshot = async (db: Database) => {
      const copy = createContentStore(db);
      const pages = [];
      for (const listing of await copy.listAll())
        pages.push([
          listing.slug,
          await copy.getPage(listing.slug, { draft: false }),
          await copy.getPage(listing.slug, { draft: true }),
          await copy.findRedirect('style-guide'),
        ]);
      return pages;
    };
    expect(await snapshot(back)).toEqual(await snapshot(sqlite));
    expect(await snapshot(postgres)).toEqual(await snapshot(sqlite));
    expect(await bytesOf(postgres)).toBe(await bytesOf(sqlite));
    expect(await bytesOf(back)).toBe(await bytesOf(sqlite));
    expect((await bytesOf(sqlite)).length).toBeGreaterThan(0);
    // New rows after a copy get ids after the copied ones (PostgreSQL sequences moved on).
    await createContentStore(postgres).putPage(
      { slug: 'after-copy', title: 'A', summary: '', body: 'x' },
      { publish: true },
    );
    const { verifyCredentials } = await import('../lib/editors/accounts');
    expect(
      await verifyCredentials(postgres, 'ed@example.com', 'a long enough password'),
    ).not.toBeNull();
  }, 30_000);

  // Issue 24: old data (written before settings were cleaned, or by hand) with a NUL in it broke
  // a copy to PostgreSQL with a message that named no row. It names the table, row and field.
  test('a row the target cannot store is named in one line, and nothing is copied', async () => {
    const sqlite = await openTestDatabase('sqlite');
    const postgres = await openTestDatabase('postgres');
    opened.push(sqlite, postgres);
    await seedDemoContent(sqlite, createContentStore(sqlite));
    await sqlite.query`INSERT INTO settings (key, value) VALUES ('site_tagline', ${'Old\u0000tag'})
                       ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
    const cli = await harness({}, '', { db: sqlite });
    expect(await cli.run('db', 'copy', sqlite.url, postgres.url)).toBe(1);
    const said = cli.err.join('');
    expect(said.trim().split('\n')).toEqual([
      expect.stringContaining(
        'cannot copy settings row key="site_tagline": field value holds a NUL character',
      ),
    ]);
    expect(said).not.toContain('    at ');
    expect(await createContentStore(postgres).pageCount()).toBe(0);

    // So is a page's: its table, its id and slug, the field.
    await sqlite.query`INSERT INTO settings (key, value) VALUES ('site_tagline', 'Mended')
                       ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
    const [draft] = await sqlite.query<{ page_id: number }>`SELECT page_id FROM drafts LIMIT 1`;
    await sqlite.query`UPDATE drafts SET title = ${'Bad\u0000title'} WHERE page_id = ${draft?.page_id}`;
    cli.err.length = 0;
    expect(await cli.run('db', 'copy', sqlite.url, postgres.url)).toBe(1);
    expect(cli.err.join('').trim()).toContain(
      `cannot copy drafts row page_id=${draft?.page_id}: field title holds a NUL character`,
    );
  }, 30_000);

  test('refuses a target that already holds a site, and bad URLs', async () => {
    const a = await testDatabase();
    const b = await testDatabase();
    await seedDemoContent(a, createContentStore(a));
    await seedDemoContent(b, createContentStore(b));
    const cli = await harness({}, '', { db: a });
    expect(await cli.run('db', 'copy', a.url, b.url)).toBe(1);
    expect(cli.err.at(-1)).toContain('it already has pages; copy into an empty database');
    expect(await cli.run('db', 'copy', 'mysql://x', b.url)).toBe(2);
    expect(await cli.run('db', 'copy', a.url, a.url)).toBe(2);
  });
});
