import { describe, expect, test } from 'bun:test';
import { openDatabase } from '../lib/db';
import { runCli } from './folio';

function harness(files: Record<string, string> = {}, stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const db = openDatabase('sqlite::memory:');
  const run = (...argv: string[]) =>
    runCli(argv, db, {
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
