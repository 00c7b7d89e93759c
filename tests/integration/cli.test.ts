// The CLI as an operator runs it (`bun run folio …`): on a terminal, from a pipe, with mistakes.

import { afterAll, describe, expect, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createContentStore } from '../../src/lib/content/content';
import { openDatabase } from '../../src/lib/data/db';
import { migrations } from '../../src/lib/data/migrations';
import { addEditor } from '../../src/lib/editors/accounts';
import {
  createThrowAwayDatabase,
  postgresUrlFor,
  TEST_ENGINE,
  type ThrowAwayDatabase,
} from '../databases';
import { runFolioCli } from '../harness';

const ROOT = path.resolve(import.meta.dir, '../..');
const STACK_TRACE = /\bat \S+:\d+|\.ts:\d+|Error: /;

// Each test's databases are new ones on the run's engine, dropped at the end.
const made: ThrowAwayDatabase[] = [];
async function newDatabaseUrl(): Promise<string> {
  const database = await createThrowAwayDatabase();
  made.push(database);
  return database.url;
}
afterAll(async () => {
  await Promise.all(made.map((database) => database.drop()));
}, 30_000);

async function folio(args: string[], { stdin = '', databaseUrl = '' } = {}) {
  databaseUrl ||= await newDatabaseUrl();
  return { ...(await runFolioCli(args, { databaseUrl, stdin })), databaseUrl };
}

/**
 * Runs the CLI on a pseudo-terminal (Python's pty), answering each prompt that contains a
 * marker with a line; returns the exit code and everything the terminal showed.
 */
async function onTerminal(
  args: string[],
  answers: [prompt: string, line: string][],
  databaseUrl: string,
) {
  const script = `
import json, os, pty, select, sys, time
answers = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvp('bun', ['bun', 'run', '--silent', 'folio'] + json.loads(sys.argv[2]))
seen, out, since, deadline = 0, b'', 0, time.time() + 30
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.2)
    if ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    # Answer a prompt once its marker has appeared since the previous answer.
    if seen < len(answers) and answers[seen][0].encode() in out[since:]:
        os.write(fd, answers[seen][1].encode() + b'\\r')
        seen, since = seen + 1, len(out)
_, status = os.waitpid(pid, 0)
print(json.dumps({'code': os.waitstatus_to_exitcode(status), 'terminal': out.decode(errors='replace')}))
`;
  const child = Bun.spawn(
    ['python3', '-c', script, JSON.stringify(answers), JSON.stringify(args)],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  );
  const [code, stdout] = await Promise.all([child.exited, new Response(child.stdout).text()]);
  expect(code).toBe(0);
  return JSON.parse(stdout) as { code: number; terminal: string };
}

describe('the folio CLI, run as an operator runs it', () => {
  test('editor add on a terminal asks twice, shows nothing typed, and adds the editor', async () => {
    const databaseUrl = await newDatabaseUrl();
    const secret = 'a very secret passphrase';
    const result = await onTerminal(
      ['editor', 'add', 'tty@example.com'],
      [
        ['Password', secret],
        ['again', secret],
      ],
      databaseUrl,
    );
    expect(result.terminal).toContain('Password (at least 10 characters):');
    expect(result.terminal).toContain('The same password again:');
    expect(result.terminal.includes(secret)).toBe(false);
    expect(result.terminal).toContain('editor tty@example.com added');
    expect(result.code).toBe(0);
    const list = await folio(['editor', 'list'], { databaseUrl });
    expect(list.stdout).toContain('tty@example.com');
  }, 40_000);

  test('import and export show a progress line on a terminal (and none when piped)', async () => {
    // Issue 25: an import of 100 000 files runs for minutes; a terminal sees how far it is.
    // Piped (every other test here), stderr stays empty and stdout says only the result.
    const databaseUrl = await newDatabaseUrl();
    const dir = mkdtempSync(path.join(tmpdir(), 'folio-progress-'));
    try {
      for (const n of [1, 2, 3])
        writeFileSync(path.join(dir, `p${n}.md`), `---\ntitle: "P${n}"\nsummary: ""\n---\nx\n`);
      const imported = await onTerminal(['import', dir], [], databaseUrl);
      expect(imported.code).toBe(0);
      expect(imported.terminal).toContain('imported 3 / 3 files');
      expect(imported.terminal).toContain(`imported 3 files from ${dir}`);
      const exported = await onTerminal(['export', path.join(dir, 'out')], [], databaseUrl);
      expect(exported.terminal).toContain('\r\u001b[Kexported 3 files');
      const piped = await folio(['export', path.join(dir, 'out2')], { databaseUrl });
      expect(piped).toMatchObject({ code: 0, stderr: '' });
      expect(piped.stdout).toBe(`exported 3 files to ${path.join(dir, 'out2')}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

  test('two different passwords on a terminal change nothing', async () => {
    const databaseUrl = await newDatabaseUrl();
    const result = await onTerminal(
      ['editor', 'add', 'tty@example.com'],
      [
        ['Password', 'first passphrase here'],
        ['again', 'second passphrase here'],
      ],
      databaseUrl,
    );
    expect(result.code).toBe(1);
    expect(result.terminal).toContain('the two passwords differ; nothing was changed');
    expect((await folio(['editor', 'list'], { databaseUrl })).stdout).toContain('no editors yet');
  }, 40_000);

  test('from a pipe, editor add takes the first line', async () => {
    const added = await folio(['editor', 'add', 'pipe@example.com'], {
      stdin: 'the first line passphrase\nsomething else\n',
    });
    expect(added.code).toBe(0);
    expect(added.stdout).toBe('editor pipe@example.com added as Owner\n');
  });

  test('--help prints the usage and exits 0; mistakes get one line, never a stack trace', async () => {
    const help = await folio(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: bun run folio <command>');
    for (const [args, code, said] of [
      [
        ['page', 'put', 'x', '--title', 'X', '--body-file', '/nonexistent.md'],
        1,
        'folio: cannot read /nonexistent.md: no such file\n',
      ],
      [
        ['import', '/nonexistent-folder'],
        1,
        'folio: cannot read /nonexistent-folder: no such folder\n',
      ],
      [
        ['db', 'restore', '/nonexistent.db'],
        1,
        TEST_ENGINE === 'sqlite'
          ? 'folio: cannot read /nonexistent.db: no such file\n'
          : 'folio: db restore replaces a SQLite file; for PostgreSQL use pg_restore, or `db copy sqlite:<backup> <empty postgres-url>`\n',
      ],
      [['db', 'seed'], 0, ''],
    ] as [string[], number, string][]) {
      const run = await folio(args);
      expect(run.code, args.join(' ')).toBe(code);
      expect(run.stderr, args.join(' ')).toBe(said);
    }
    const tooLong = await folio(['preview-link', 'about', '--ttl', '400d']);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toStartWith(
      'folio: --ttl 400d is too long: a preview link lasts at most 7 days (7d)\n',
    );
    expect(tooLong.stderr).not.toMatch(STACK_TRACE);
  }, 30_000);

  // Hostile pass: a mistyped SQLite path made a new, empty database (and its folders) and
  // "succeeded" against it. Commands that read or change content refuse it now, creating
  // nothing; the ones that set a site up (`db migrate` here) still make it, and say so.
  test('a SQLite file that does not exist is refused in one line, creating nothing; db migrate makes it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'folio-cli-'));
    try {
      const file = path.join(dir, 'typo', 'folio.db');
      const databaseUrl = `sqlite:${file}`;
      const refusal = `folio: no database at ${file}: run \`bun run folio db migrate\` (or \`bun run start\`) to create one\n`;
      for (const args of [
        ['page', 'list'],
        ['page', 'unpublish', 'about'],
      ]) {
        const run = await folio(args, { databaseUrl });
        expect(run.code, args.join(' ')).toBe(1);
        expect(run.stderr, args.join(' ')).toBe(refusal);
        expect(run.stdout, args.join(' ')).toBe('');
      }
      expect(readdirSync(dir)).toEqual([]);
      const made = await folio(['db', 'migrate'], { databaseUrl });
      expect(made.code).toBe(0);
      expect(made.stderr).toBe(
        `folio: ${file} did not exist: it is a new, empty database now (DATABASE_URL names it)\n`,
      );
      const again = await folio(['page', 'list'], { databaseUrl });
      expect(again.code).toBe(0);
      expect(again.stderr).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test.if(TEST_ENGINE === 'postgres')(
    'a PostgreSQL database that does not exist is an expected refusal in one line',
    async () => {
      const databaseUrl = postgresUrlFor('folio_no_such_database');
      const run = await folio(['page', 'list'], { databaseUrl });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        'folio: no database "folio_no_such_database" on the PostgreSQL server: create it (createdb folio_no_such_database), then run `bun run folio db migrate`\n',
      );
    },
  );

  // Fourth hostile review: `import` blocked for ever on a FIFO and imported (and published) a
  // link to a file outside its folder; `export` wrote through a link outside its folder.
  test('import and export take regular files only: a FIFO or a link is refused in one line, nothing published', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'folio-files-'));
    try {
      const page = (title: string) => `---\ntitle: "${title}"\nsummary: ""\n---\nText.\n`;
      const outside = path.join(dir, 'outside');
      mkdirSync(outside);
      writeFileSync(path.join(outside, 'secret.md'), page('Secret'));
      const pages = path.join(dir, 'pages');
      mkdirSync(pages);
      writeFileSync(path.join(pages, 'hello.md'), page('Hello'));
      symlinkSync(path.join(outside, 'secret.md'), path.join(pages, 'secret.md'));
      const fifo = path.join(pages, 'notes.md');
      execFileSync('mkfifo', [fifo]);
      const databaseUrl = await newDatabaseUrl();
      // A CLI still waiting on the FIFO after 15 s is let go (a writer opens and closes it, so
      // its read ends), and fails the test below rather than hanging it. Non-blocking: with no
      // reader waiting the open fails, and nothing is done.
      const letGo = setTimeout(() => {
        try {
          closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {}
      }, 15_000);
      const imported = await folio(['import', pages], { databaseUrl }).finally(() =>
        clearTimeout(letGo),
      );
      expect(imported.stderr).toBe(
        'folio: nothing imported; fix these files first:\n' +
          '  notes.md: a named pipe (FIFO); import reads regular files only\n' +
          '  secret.md: a symbolic link; import reads regular files only\n',
      );
      expect(imported.code).toBe(1);
      const listed = await folio(['page', 'list', '--json'], { databaseUrl });
      expect(JSON.parse(listed.stdout)).toEqual([]);

      await folio(
        [
          'page',
          'put',
          'about',
          '--title',
          'About',
          '--body-file',
          path.join(pages, 'hello.md'),
          '--publish',
        ],
        { databaseUrl },
      );
      const target = path.join(dir, 'export');
      mkdirSync(target);
      symlinkSync(path.join(outside, 'secret.md'), path.join(target, 'about.md'));
      const exported = await folio(['export', target], { databaseUrl });
      expect(exported.stderr).toBe(
        `folio: nothing exported; move these out of ${target} first:\n  about.md: a symbolic link; export writes regular files only\n`,
      );
      expect(exported.code).toBe(1);
      expect(readFileSync(path.join(outside, 'secret.md'), 'utf8')).toBe(page('Secret'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('import names the images its pages lack; page put --publish refuses them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'folio-import-'));
    try {
      const missing = `/media/${'b'.repeat(32)}`;
      writeFileSync(
        path.join(dir, 'pictured.md'),
        `---\ntitle: "Pictured"\nsummary: ""\n---\n![A cat](${missing})\n`,
      );
      const databaseUrl = await newDatabaseUrl();
      const imported = await folio(['import', dir], { databaseUrl });
      expect(imported.code).toBe(0);
      expect(imported.stdout).toBe(`imported 1 files from ${dir}\n`);
      expect(imported.stderr).toContain(
        `1 image address(es) that answer no image in this database (${missing}):`,
      );
      const put = await folio(
        [
          'page',
          'put',
          'again',
          '--title',
          'Again',
          '--body-file',
          path.join(dir, 'pictured.md'),
          '--publish',
        ],
        { databaseUrl },
      );
      expect(put.code).toBe(1);
      expect(put.stderr).toBe(
        `folio: Not published: the page names an image that is not in the media library (${missing}: deleted, misspelt or never uploaded). Take it out or upload the image again, then publish.\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('db migrate says what it applied, then that there is nothing to do', async () => {
    const databaseUrl = await newDatabaseUrl();
    const first = await folio(['db', 'migrate'], { databaseUrl });
    expect(first.stdout).toBe(
      `applied ${migrations.length} migration(s): ${migrations.map((m) => `${m.id} ${m.name}`).join(', ')}\n`,
    );
    const again = await folio(['db', 'migrate'], { databaseUrl });
    expect(again.stdout).toBe('nothing to do: the database is up to date\n');
  });
});

describe('page put --authors (issue 27)', () => {
  test('names a post’s authors by address; an unknown one is refused in words', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'folio-cli-')), 'body.md');
    writeFileSync(file, 'Text.');
    const put = (databaseUrl: string, ...extra: string[]) =>
      folio(
        ['page', 'put', 'signed', '--title', 'Signed', '--body-file', file, '--publish', ...extra],
        { databaseUrl },
      );
    const first = await put('', '--kind', 'post');
    expect(first.code).toBe(0);
    const { databaseUrl } = first;
    const db = await openDatabase(databaseUrl, { poolSize: 1 });
    try {
      const store = createContentStore(db);
      const editor = await addEditor(db, 'cli-author@example.com', 'the cli passphrase');
      await store.saveAuthorProfile(editor.id, {
        slug: 'cli-author',
        name: 'Cli Author',
        bio: '',
        photo: '',
        links: '',
      });
      expect((await put(databaseUrl, '--authors', 'cli-author')).code).toBe(0);
      const page = await store.getPage('signed', { draft: false });
      expect((await store.bylinesByIds(page?.authorIds ?? [])).map((a) => a.name)).toEqual([
        'Cli Author',
      ]);
      expect((await store.getPublicAuthor('cli-author'))?.name).toBe('Cli Author');
    } finally {
      await db.close();
    }
    const bad = await put(databaseUrl, '--authors', 'nobody');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('No author is at /nobody.');
    expect(bad.stderr).not.toMatch(STACK_TRACE);
  });
});

describe('page put --kind and --topics (issue 27)', () => {
  test('a page becomes a post with topics, and back; a bad kind or too many topics is refused in words', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'folio-cli-')), 'body.md');
    writeFileSync(file, 'Text.');
    const put = (databaseUrl: string, ...extra: string[]) =>
      folio(
        ['page', 'put', 'notes', '--title', 'Notes', '--body-file', file, '--publish', ...extra],
        {
          databaseUrl,
        },
      );
    const first = await put('', '--kind', 'page');
    expect(first.code).toBe(0);
    const { databaseUrl } = first;
    expect((await put(databaseUrl, '--kind', 'post', '--topics', 'Field notes, Birds')).code).toBe(
      0,
    );
    const db = await openDatabase(databaseUrl, { poolSize: 1 });
    try {
      const store = createContentStore(db);
      expect((await store.getPublicTopic('field-notes'))?.name).toBe('Field notes');
      // --kind alone keeps the topics.
      expect((await put(databaseUrl, '--kind', 'page')).code).toBe(0);
      const page = await store.getPage('notes', { draft: false });
      expect(page?.kind).toBe('page');
      expect((await store.topicsByIds(page?.topicIds ?? [])).map((t) => t.name)).toEqual([
        'Field notes',
        'Birds',
      ]);
      expect(await store.getPublicTopic('field-notes')).toBeNull();
    } finally {
      await db.close();
    }
    const bad = await put(databaseUrl, '--kind', 'article');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--kind is post or page, not “article”');
    const many = await put(
      databaseUrl,
      '--topics',
      Array.from({ length: 30 }, (_, i) => `t${i}`).join(','),
    );
    expect(many.code).not.toBe(0);
    expect(many.stderr).toContain('A post has at most 20 topics.');
    expect(many.stderr).not.toMatch(STACK_TRACE);
  });
});
