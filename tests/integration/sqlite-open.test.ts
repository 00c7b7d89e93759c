// Two processes opening one new SQLite file at the same moment (two instances started
// together): SQLite could answer the switch to WAL with "database is locked" at once, without
// waiting out busy_timeout — 4 of 30 pairs failed so before the open retried it.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEST_ENGINE } from '../databases';

const SCRIPT = path.join(import.meta.dir, '../scripts/open-database.ts');

async function open(url: string): Promise<string> {
  const child = Bun.spawn(['bun', SCRIPT, url], { stdout: 'ignore', stderr: 'pipe' });
  const [code, errors] = await Promise.all([child.exited, new Response(child.stderr).text()]);
  return code === 0 ? 'ok' : errors.trim();
}

describe.if(TEST_ENGINE === 'sqlite')(
  'opening a new SQLite file from two processes at once',
  () => {
    test('both open it, every time', async () => {
      const outcomes: string[] = [];
      for (let i = 0; i < 40; i++) {
        const dir = mkdtempSync(path.join(tmpdir(), 'folio-open-'));
        const url = `sqlite:${path.join(dir, 'folio.db')}`;
        outcomes.push(...(await Promise.all([open(url), open(url)])));
        rmSync(dir, { recursive: true, force: true });
      }
      expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual([]);
    }, 60_000);
  },
);
