// The CLI's real file system on real folders: import and export take regular files only, and
// never follow a link (fourth hostile review: a FIFO blocked `import` for ever, a link to a file
// outside the folder was imported and published, `export` wrote through a link).
import { afterAll, describe, expect, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileSystemIo } from './io';

const root = mkdtempSync(path.join(tmpdir(), 'folio-io-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const folder = () => {
  const dir = path.join(root, `f${++folders}`);
  mkdirSync(dir);
  return dir;
};
const PAGE = '---\ntitle: "T"\nsummary: ""\n---\nbody\n';

describe('import reads regular files only', () => {
  test('a FIFO is refused at once, not waited on; a link is refused, not followed', async () => {
    const dir = folder();
    const outside = path.join(folder(), 'secret.md');
    writeFileSync(outside, PAGE);
    writeFileSync(path.join(dir, 'good.md'), PAGE);
    execFileSync('mkfifo', [path.join(dir, 'pipe.md')]);
    symlinkSync(outside, path.join(dir, 'linked.md'));
    mkdirSync(path.join(dir, 'folder.md'));
    const names = await fileSystemIo.listMarkdown(dir);
    expect(names).toEqual(['folder.md', 'good.md', 'linked.md', 'pipe.md']);
    const read = await Promise.all(names.map((name) => fileSystemIo.readContentFile(dir, name)));
    expect(read).toEqual([
      { problem: 'a folder' },
      PAGE,
      { problem: 'a symbolic link' },
      { problem: 'a named pipe (FIFO)' },
    ]);
  }, 10_000);
});

describe('export writes regular files only, never through a link', () => {
  test('a link in the folder refuses the export; the file it points at is untouched', async () => {
    const dir = folder();
    const outside = path.join(folder(), 'bashrc');
    writeFileSync(outside, 'mine\n');
    symlinkSync(outside, path.join(dir, 'about.md'));
    const refusal = await fileSystemIo
      .writeFiles(dir, [
        { name: 'home.md', text: PAGE },
        { name: 'about.md', text: PAGE },
      ])
      .then(
        () => 'written',
        (error: Error) => error.message,
      );
    expect(refusal).toBe(
      `nothing exported; move these out of ${dir} first:\n  about.md: a symbolic link; export writes regular files only`,
    );
    expect(readFileSync(outside, 'utf8')).toBe('mine\n');
    expect(() => readFileSync(path.join(dir, 'home.md'))).toThrow();
  }, 10_000);

  test('a FIFO in the folder is refused at once; regular files are replaced', async () => {
    const dir = folder();
    execFileSync('mkfifo', [path.join(dir, 'pipe.md')]);
    writeFileSync(path.join(dir, 'old.md'), 'a much longer old text than the new one\n');
    await expect(fileSystemIo.writeFiles(dir, [{ name: 'pipe.md', text: PAGE }])).rejects.toThrow(
      'pipe.md: a named pipe (FIFO); export writes regular files only',
    );
    await fileSystemIo.writeFiles(dir, [{ name: 'old.md', text: PAGE }]);
    expect(readFileSync(path.join(dir, 'old.md'), 'utf8')).toBe(PAGE);
  }, 10_000);
});
