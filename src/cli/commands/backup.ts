// Owns the site's copies in and out of one database: `db backup` and `db restore` (a SQLite
// file, whole) and `export` and `import` (the pages as Markdown). Loaded only when one runs.
import 'server-only';
import { SQL } from 'bun';
import { createContentStore } from '../../lib/content/content';
import { exportBatches, ImportStopped, importContent } from '../../lib/content/files';
import { serversUsing } from '../../lib/data/db';
import { firstFew } from '../../lib/media/media-refs';
import { betweenBatches, CliError, one, type Run } from '../command';
import { exportRefusal } from '../io';

/** Why a file is not a Folio database we can restore, or null when it is. */
async function checkBackup(file: string): Promise<string | null> {
  const backup = new SQL({ adapter: 'sqlite', filename: file, readonly: true });
  try {
    const [integrity] = await backup<{ integrity_check: string }[]>`PRAGMA integrity_check`;
    if (integrity?.integrity_check !== 'ok') return 'integrity check failed';
    const [table] = await backup`
      SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`;
    return table ? null : 'it has no Folio schema';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await backup.close();
  }
}

export const dbBackup: Run = async ({ positionals }, { db, io }) => {
  const file = one(positionals);
  if (db.engine !== 'sqlite')
    throw new CliError(
      `db backup copies a SQLite file; for PostgreSQL use pg_dump, or \`db copy <postgres-url> sqlite:${file}\``,
    );
  if (await io.exists(file)) throw new CliError(`${file} already exists; choose a new file name`);
  try {
    // VACUUM INTO reads one consistent snapshot while writers carry on (WAL mode).
    await db.client.unsafe('VACUUM INTO ?', [file]);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${error instanceof Error ? error.message : error}`);
  }
  io.stdout(`backed up to ${file}\n`);
};

export const dbRestore: Run = async ({ positionals }, { db, io }) => {
  const file = one(positionals);
  const target = db.file;
  if (target === null)
    throw new CliError(
      'db restore replaces a SQLite file; for PostgreSQL use pg_restore, or `db copy sqlite:<backup> <empty postgres-url>`',
    );
  if (target === ':memory:')
    throw new CliError('DATABASE_URL is in memory: nothing to restore into');
  // A server keeps the file it opened: it would go on saving into the replaced one, and
  // every change made after the restore would be lost.
  const servers = serversUsing(target);
  if (servers.length > 0)
    throw new CliError(
      `Folio is serving ${target} (pid ${servers.join(', ')}); stop it, restore, then start it again`,
    );
  if (!(await io.exists(file))) throw new CliError(`cannot read ${file}: no such file`);
  const problem = await checkBackup(file);
  if (problem) throw new CliError(`${file} is not a usable backup: ${problem}`);
  await db.close();
  await io.replaceDatabase(file, target);
  io.stdout(`restored ${target} from ${file}\n`);
};

export const exportPages: Run = async ({ positionals }, { db, io }) => {
  const dir = one(positionals);
  const store = createContentStore(db);
  // Two walks of the site, a batch of pages at a time (never all of it in memory): every
  // name is checked before anything is written, then the files are written.
  const problems: string[] = [];
  for await (const files of exportBatches(store))
    problems.push(
      ...(await io.exportProblems(
        dir,
        files.map((file) => file.name),
      )),
    );
  if (problems.length > 0) throw new CliError(exportRefusal(dir, problems));
  let written = 0;
  try {
    for await (const files of exportBatches(store)) {
      await io.writeFiles(dir, files);
      written += files.length;
      betweenBatches();
      io.progress?.(`exported ${written} files`);
    }
  } finally {
    io.progress?.(null);
  }
  io.stdout(`exported ${written} files to ${dir}\n`);
};

export const importPages: Run = async ({ positionals }, { db, io }) => {
  const dir = one(positionals);
  if (!(await io.exists(dir))) throw new CliError(`cannot read ${dir}: no such folder`);
  const names = await io.listMarkdown(dir);
  // A link, a FIFO or a device among the files refuses the whole import, as a bad file does:
  // a folder imported in part would publish some pages and not the ones beside them.
  const result = await importContent(
    createContentStore(db),
    { names, read: (name) => io.readContentFile(dir, name) },
    {
      onProgress: (done, total) => {
        betweenBatches();
        io.progress?.(`imported ${done} / ${total} files`);
      },
    },
  )
    .catch((error: unknown) => {
      if (error instanceof ImportStopped) throw new CliError(error.message);
      throw error;
    })
    .finally(() => io.progress?.(null));
  if (result.problems.length > 0) {
    throw new CliError(
      `nothing imported; fix these files first:\n${result.problems.map((p) => `  ${p}`).join('\n')}`,
    );
  }
  io.stdout(`imported ${result.imported} files from ${dir}\n`);
  if (result.missingMedia.length > 0)
    io.stderr(
      `folio: the pages name ${result.missingMedia.length} image address(es) that answer no image in this database (${firstFew(result.missingMedia)}): export writes Markdown only, so bring the images with \`db copy\` or a backup; an address misspelt in the text needs the page mended\n`,
    );
};
