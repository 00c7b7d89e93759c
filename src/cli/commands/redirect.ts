// Owns `redirect list|add|remove|import|export`: the editors' redirects (issue 27) from the
// command line, with the screen's rules (content/redirects.ts). Loaded only when one runs.
import 'server-only';
import { createContentStore, isContentError } from '../../lib/content/content';
import {
  importRefusal,
  parseRedirectsCsv,
  REDIRECTS_CSV_HEADER,
  redirectCsvLine,
} from '../../lib/content/redirects-csv';
import { CliError, one, type Run, UsageError } from '../command';

export const redirectList: Run = async ({ values }, { db, io }) => {
  const store = createContentStore(db);
  let shown = 0;
  for await (const redirect of store.eachRedirect()) {
    io.stdout(`${redirect.status}  ${redirect.from}  →  ${redirect.to}\n`);
    shown += 1;
  }
  if (shown === 0) io.stdout('no redirects\n');
  if (values.renames) {
    for (const rename of await store.listRenameRedirects(1000))
      io.stdout(`301  ${rename.from}  →  ${rename.to}  (renamed ${rename.renamedAt})\n`);
  }
};

export const redirectAdd: Run = async ({ positionals, values }, { db, io }) => {
  const [from = '', to = ''] = positionals;
  if (from === '' || to === '') throw new UsageError('redirect add takes <from> and <to>');
  try {
    const made = await createContentStore(db).addRedirect(
      { from, to, status: values.temporary ? 302 : 301 },
      { editor: 'cli', replace: values.replace === true },
    );
    io.stdout(`${made.status}  ${made.from}  →  ${made.to}\n`);
  } catch (error) {
    if (isContentError(error)) throw new CliError(error.message);
    throw error;
  }
};

export const redirectRemove: Run = async ({ positionals }, { db, io }) => {
  const from = one(positionals);
  if (!(await createContentStore(db).removeRedirect(from)))
    throw new CliError(`there is no redirect from ${from} (\`redirect list\` shows them)`);
  io.stdout(`redirect from ${from} removed\n`);
};

export const redirectExport: Run = async (_args, { db, io }) => {
  io.stdout(`${REDIRECTS_CSV_HEADER}\n`);
  for await (const redirect of createContentStore(db).eachRedirect())
    io.stdout(`${redirectCsvLine(redirect)}\n`);
};

export const redirectImport: Run = async ({ positionals }, { db, io }) => {
  const file = one(positionals);
  if (!(await io.exists(file))) throw new CliError(`there is no file ${file}`);
  const parsed = parseRedirectsCsv(await io.readFile(file));
  const { added, problems } =
    parsed.problems.length > 0
      ? { added: 0, problems: parsed.problems }
      : await createContentStore(db).importRedirects(parsed.redirects, { editor: 'cli' });
  if (problems.length > 0) {
    const refusal = importRefusal(file, problems);
    for (const line of refusal.lines) io.stderr(`${line}\n`);
    throw new CliError(refusal.summary);
  }
  io.stdout(`imported ${added} redirect${added === 1 ? '' : 's'}\n`);
};
