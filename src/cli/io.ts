// Owns the `folio` CLI's real I/O: the file system, and a new password read from a terminal
// (without echo) or a pipe. Tests pass their own; only the command line's entry uses these.
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ContentFile } from '../lib/content/files';
import { CliError } from './command';

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
export async function askPasswordOnTerminal(): Promise<string> {
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
export async function readPasswordLine(): Promise<string> {
  const text = await Bun.stdin.text();
  return text.split(/\r?\n/, 1)[0] ?? '';
}
