// Owns the `page …` commands: a page's draft, its publishing, and its schedule. Loaded only
// when one of them runs; `page publish` is the path an operator waits on, so this module
// imports the page store and what it formats, and nothing else.
import 'server-only';
import { createContentStore } from '../../lib/content/content';
import { formatUtc } from '../../lib/content/dates';
import type { PostInput } from '../../lib/content/page-writes';
import { isPageKind, NEW_PAGE_KIND } from '../../lib/content/post-fields';
import { parsePublishTime, unreadableTimeMessage } from '../../lib/content/publish-time';
import { CliError, one, type Run, readNamedFile, UsageError } from '../command';

export const pageList: Run = async ({ values }, { db, io }) => {
  const pages = await createContentStore(db).listAll();
  if (values.json) io.stdout(`${JSON.stringify(pages, null, 2)}\n`);
  else
    for (const page of pages)
      io.stdout(
        `${page.slug.padEnd(32)} ${page.state.padEnd(10)} ${page.title}${
          page.publishAt ? `  (to be published ${formatUtc(page.publishAt)})` : ''
        }${
          page.missedPublishAt
            ? `  (not published as scheduled for ${formatUtc(page.missedPublishAt)}: see its preview)`
            : ''
        }\n`,
      );
};

export const pagePut: Run = async ({ positionals, values }, { db, io }) => {
  const slug = one(positionals);
  if (typeof values.title !== 'string' || typeof values['body-file'] !== 'string')
    throw new UsageError('page put needs --title and --body-file');
  const body = await readNamedFile(io, values['body-file']).catch((error: unknown) => {
    // A folder, an unreadable file: said about the file the operator named.
    if ((error as { code?: unknown }).code === 'EISDIR')
      throw new CliError(`cannot read ${values['body-file']}: it is a folder, not a file`);
    throw error;
  });
  const summary = typeof values.summary === 'string' ? values.summary : '';
  const store = createContentStore(db);
  const post = await postInputOf(store, slug, values.kind, values.topics, values.authors);
  await store.putPage(
    { slug, title: values.title, summary, body, ...(post ? { post } : {}) },
    { publish: values.publish === true, editor: 'cli' },
  );
  io.stdout(`${slug}: ${values.publish ? 'saved and published' : 'draft saved'}\n`);
};

/**
 * `--kind`, `--topics` and `--authors` as the store takes them: none given keeps what the page
 * has (a new page is a post); one given keeps the others as the page has them (a new page: a
 * post, no topics, no authors). `--authors` names authors by address, comma separated.
 */
async function postInputOf(
  store: ReturnType<typeof createContentStore>,
  slug: string,
  kind: unknown,
  topics: unknown,
  authors: unknown,
): Promise<PostInput | null> {
  if (kind === undefined && topics === undefined && authors === undefined) return null;
  if (kind !== undefined && !isPageKind(kind))
    throw new UsageError(`--kind is post or page, not “${String(kind)}”`);
  const page = await store.getPage(slug, { draft: true });
  const names =
    typeof topics === 'string'
      ? topics.split(',')
      : (await store.topicsByIds(page?.topicIds ?? [])).map((topic) => topic.name);
  return {
    kind: isPageKind(kind) ? kind : (page?.kind ?? NEW_PAGE_KIND),
    topics: names,
    ...(typeof authors === 'string'
      ? {
          authors: authors
            .split(',')
            .map((slug) => slug.trim())
            .filter((slug) => slug !== ''),
        }
      : {}),
  };
}

export const pagePublish: Run = async ({ positionals }, { db, io }) => {
  await createContentStore(db).publish(one(positionals), { editor: 'cli' });
  io.stdout(`${one(positionals)}: published\n`);
};

export const pageUnpublish: Run = async ({ positionals }, { db, io }) => {
  await createContentStore(db).unpublish(one(positionals), { editor: 'cli' });
  io.stdout(`${one(positionals)}: unpublished\n`);
};

export const pageSchedule: Run = async ({ positionals }, { db, io }) => {
  const [slug = '', text = ''] = positionals;
  const at = parsePublishTime(text);
  if (!at) throw new CliError(unreadableTimeMessage(text));
  const schedule = await createContentStore(db).schedulePublish(slug, at, { editor: 'cli' });
  io.stdout(`${slug}: will be published at ${formatUtc(schedule.publishAt)}\n`);
};

export const pageUnschedule: Run = async ({ positionals }, { db, io }) => {
  const slug = one(positionals);
  const cancelled = await createContentStore(db).cancelSchedule(slug);
  io.stdout(cancelled ? `${slug}: schedule cancelled\n` : `${slug}: was not scheduled\n`);
};

export const pagePublishDue: Run = async (_args, { db, io }) => {
  const published = await createContentStore(db).publishDue();
  if (published.length === 0) io.stdout('nothing is due\n');
  for (const page of published)
    if (page.refused === undefined)
      io.stdout(`${page.slug}: published (due ${formatUtc(page.publishAt)})\n`);
    else io.stderr(`folio: ${page.slug}: ${page.refused}\n`);
  const refused = published.filter((page) => page.refused !== undefined).length;
  if (refused > 0)
    throw new CliError(
      `${refused} page(s) were not published (above); their schedules are cleared and their drafts kept`,
    );
};
