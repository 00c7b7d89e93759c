// Owns `db migrate`, `db seed` and `db copy`: the database's schema, the demo content, and a
// whole site carried between engines. Loaded only when one of them runs.
import 'server-only';
import { createContentStore } from '../../lib/content/content';
import { seedDemoContent } from '../../lib/content/seed';
import {
  engineOf,
  maskedUrl,
  migrate,
  openDatabase,
  schemaVersion,
  sqliteFileOf,
} from '../../lib/data/db';
import { CopyRowError, copySite } from '../../lib/data/db-copy';
import { migrations } from '../../lib/data/migrations';
import { betweenBatches, CliError, type Run, UsageError } from '../command';

/** A URL `db copy` can open, or a usage error naming the argument. */
function databaseUrlArgument(value: string, which: string): string {
  if (engineOf(value) === null)
    throw new UsageError(`${which} must be sqlite:<file> or postgres://…, not ${maskedUrl(value)}`);
  return value;
}

export const dbMigrate: Run = async (_args, { db, io }) => {
  const ran = await migrate(db);
  io.stdout(
    ran.length
      ? `applied ${ran.length} migration(s): ${ran.map((m) => `${m.id} ${m.name}`).join(', ')}\n`
      : 'nothing to do: the database is up to date\n',
  );
};

export const dbSeed: Run = async (_args, { db, io }) => {
  io.stdout(
    (await seedDemoContent(db, createContentStore(db)))
      ? 'seeded demo content\n'
      : 'database already has pages; nothing seeded\n',
  );
};

export const dbCopy: Run = async ({ positionals }, { io }) => {
  const from = databaseUrlArgument(positionals[0] ?? '', 'the source');
  const to = databaseUrlArgument(positionals[1] ?? '', 'the target');
  if (from === to) throw new UsageError('the source and the target are the same database');
  if (engineOf(from) === 'sqlite' && !(await io.exists(sqliteFileOf(from))))
    throw new CliError(`cannot read ${sqliteFileOf(from)}: no such file`);
  const source = await openDatabase(from, { migrate: false });
  try {
    // A source from a newer Folio has tables this one does not know: refuse, copy nothing.
    const newest = Math.max(...migrations.map((migration) => migration.id));
    if ((await schemaVersion(source)) > newest)
      throw new CliError('the source was written by a newer Folio; copy it with that version');
    await migrate(source);
    const target = await openDatabase(to);
    try {
      const counts = await copySite(source, target, {
        onProgress: (table, copied) => {
          betweenBatches();
          io.progress?.(`copying ${table}: ${copied} rows`);
        },
      })
        .catch((error: unknown) => {
          if (error instanceof Error && /^it already has/.test(error.message))
            throw new CliError(`${maskedUrl(to)}: ${error.message}`);
          // A row the target refuses is named in one line (table, key, field), not a stack.
          if (error instanceof CopyRowError) throw new CliError(error.message);
          throw error;
        })
        .finally(() => io.progress?.(null));
      io.stdout(`copied ${maskedUrl(from)} → ${maskedUrl(to)}\n`);
      io.stdout(`${'table'.padEnd(18)}${'source'.padStart(8)}${'target'.padStart(8)}\n`);
      let mismatched = false;
      for (const [table, { source: there, target: here }] of Object.entries(counts)) {
        if (there !== here) mismatched = true;
        io.stdout(`${table.padEnd(18)}${String(there).padStart(8)}${String(here).padStart(8)}\n`);
      }
      if (mismatched) throw new CliError('the counts differ: the copy is not complete');
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
};
