// A small disk of the test's own, to fill up: a tmpfs mounted on a temporary folder. SQLite's
// own cap (PRAGMA max_page_count) would be simpler, but it holds only for the connection that
// sets it, and the connection that must fail is the server's; so the disk itself fills.
// Needs root (mount); only this mount is ever filled or unmounted.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type SmallDisk = {
  dir: string;
  /** Writes a filler file until the disk is full (ENOSPC). */
  fill(): void;
  /** Removes the filler: the disk has room again. */
  free(): void;
  /** Unmounts it and removes the folder. */
  destroy(): void;
};

/** Whether this machine lets the test mount a tmpfs (root, and mount allowed). */
export function canMountSmallDisk(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    smallDisk(1).destroy();
    return true;
  } catch {
    return false;
  }
}

export function smallDisk(megabytes: number): SmallDisk {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-small-disk-'));
  const mounted = Bun.spawnSync(
    ['mount', '-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir],
    {
      stderr: 'pipe',
    },
  );
  if (mounted.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`cannot mount a tmpfs: ${mounted.stderr.toString()}`);
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      const chunk = new Uint8Array(64 * 1024);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
      // Whatever the last chunk left (less than 64 KiB), byte by byte: then nothing fits.
      const rest = openSync(filler, 'a');
      try {
        for (;;) writeSync(rest, new Uint8Array(512));
      } catch {
        // ENOSPC: full.
      } finally {
        closeSync(rest);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    destroy() {
      Bun.spawnSync(['umount', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
