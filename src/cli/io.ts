// Owns the `folio` CLI's real I/O: the file system, and a new password read from a terminal
// (without echo) or a pipe. Tests pass their own; only the command line's entry uses these.
import { constants, type Stats } from 'node:fs';
import { copyFile, lstat, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
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
  /**
   * Why export cannot write these names in `dir` (made if missing), one line each. Checked
   * for every name before anything is written: an export refused is an export not begun. A
   * link is refused, never followed: writing through `about.md -> ~/.bashrc` put Markdown
   * outside the folder (fourth hostile review).
   */
  async exportProblems(dir: string, names: readonly string[]): Promise<string[]> {
    await mkdir(dir, { recursive: true });
    const problems: string[] = [];
    for (const name of names) {
      const stats = await lstat(path.join(dir, name)).catch(notFound);
      const kind = stats && notRegular(stats);
      if (kind) problems.push(`${name}: ${kind}; export writes regular files only`);
    }
    return problems;
  },
  /** Writes the files (regular files only), after checking their names as exportProblems. */
  async writeFiles(dir: string, files: ContentFile[]) {
    const problems = await fileSystemIo.exportProblems(
      dir,
      files.map((file) => file.name),
    );
    if (problems.length > 0) throw new CliError(exportRefusal(dir, problems));
    for (const file of files) {
      const target = path.join(dir, file.name);
      // O_NOFOLLOW: a link put there since the check is refused by the kernel, not followed;
      // O_NONBLOCK: a FIFO put there fails (no reader) instead of waiting for ever.
      const handle = await open(
        target,
        constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
        0o644,
      ).catch((error: unknown) => {
        throw new CliError(`cannot write ${target}: ${notWritable(error)}`);
      });
      try {
        const kind = notRegular(await handle.stat());
        if (kind) throw new CliError(`cannot write ${target}: ${kind}`);
        await handle.truncate(0);
        await handle.writeFile(file.text);
      } finally {
        await handle.close();
      }
    }
  },
  /** The folder's `.md` names, sorted: import reads the files themselves one at a time. */
  async listMarkdown(dir: string): Promise<string[]> {
    return (await readdir(dir)).filter((name) => name.endsWith('.md')).sort();
  },
  /** One file of the folder: its text, or what it is instead of a regular file. */
  readContentFile: (dir: string, name: string) => readRegularFile(path.join(dir, name)),
  async replaceDatabase(backup: string, target: string) {
    // Copy beside the target, then rename: the database file is replaced in one step.
    const staging = `${target}.restoring`;
    await copyFile(backup, staging);
    await rm(`${target}-wal`, { force: true });
    await rm(`${target}-shm`, { force: true });
    await rename(staging, target);
  },
};

/**
 * What a file is when it is not a regular file, or null. Import and export take regular files
 * only: a FIFO blocked `import` for ever, and a link to a file outside the folder was imported
 * and published (fourth hostile review).
 */
function notRegular(stats: Stats): string | null {
  if (stats.isFile()) return null;
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  return 'a device';
}

/** The one refusal of an export whose folder holds what it must not write through. */
export const exportRefusal = (dir: string, problems: readonly string[]) =>
  `nothing exported; move these out of ${dir} first:\n${problems.map((p) => `  ${p}`).join('\n')}`;

const notFound = (error: unknown) => {
  if ((error as { code?: unknown }).code === 'ENOENT') return null;
  throw error;
};

const notWritable = (error: unknown) =>
  (error as { code?: unknown }).code === 'ELOOP'
    ? 'a symbolic link; export writes regular files only'
    : error instanceof Error
      ? error.message
      : String(error);

/**
 * A regular file's text, or what it is instead. lstat refuses a link, a FIFO or a device
 * without opening it (opening some devices does something); O_NOFOLLOW and the check on the
 * opened file close the gap between the two, and O_NONBLOCK keeps a FIFO swapped in from
 * blocking the open.
 */
async function readRegularFile(file: string): Promise<string | { problem: string }> {
  const kind = notRegular(await lstat(file));
  if (kind) return { problem: kind };
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ELOOP') return { problem: 'a symbolic link' };
    throw error;
  }
  try {
    const opened = notRegular(await handle.stat());
    if (opened) return { problem: opened };
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * A progress line on a terminal's stderr, rewritten in place at most about four times a
 * second (a write per batch of a fast import is a flicker); null ends it with a newline.
 */
export function terminalProgress(): (line: string | null) => void {
  let shown = false;
  let last = 0;
  return (line) => {
    if (line === null) {
      if (shown) process.stderr.write('\n');
      shown = false;
      return;
    }
    const now = Date.now();
    if (shown && now - last < 250) return;
    last = now;
    shown = true;
    process.stderr.write(`\r\u001b[K${line}`);
  };
}

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
