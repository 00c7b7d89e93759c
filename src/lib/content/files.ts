// Owns content as Markdown files with front matter, so pages can live in git and move
// between instances: `<slug>.md` is the published version, `<slug>.draft.md` a newer draft.
import 'server-only';

import type { ContentStore } from './content';
import { type PageFields, pageFieldsSchema } from './page-fields';
import { validateNewSlug } from './slugs';

export type ContentFile = { name: string; text: string };
export type ParsedFile = { slug: string; kind: 'published' | 'draft'; fields: PageFields };

// Values are JSON literals (a YAML subset), so any title or summary round-trips exactly. JSON
// leaves U+2028 and U+2029 raw, and editors and YAML readers break lines at them: escaped.
const frontMatterValue = (value: string) =>
  JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

export function toFrontMatterFile(fields: PageFields): string {
  return `---\ntitle: ${frontMatterValue(fields.title)}\nsummary: ${frontMatterValue(fields.summary)}\n---\n${fields.body}`;
}

export function parseContentFile(file: ContentFile): ParsedFile {
  const match = /^(?<slug>[^/\\]+?)(?<draft>\.draft)?\.md$/.exec(file.name);
  const slug = match?.groups?.slug ?? '';
  if (!match) throw new Error('the file name must be <slug>.md or <slug>.draft.md');
  const slugProblem = validateNewSlug(slug);
  if (slugProblem) throw new Error(`bad slug "${slug}": ${slugProblem}`);
  const text = file.text.replace(/^\uFEFF/, '');
  // Files written on Windows have CRLF lines; the body's line endings are normalised by the
  // page-field rules, the front matter's here.
  const front = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!front?.[1]) throw new Error('missing front matter (--- title/summary ---)');
  const values: Record<string, unknown> = {};
  for (const line of front[1].split(/\r?\n/)) {
    if (!line.trim()) continue;
    // Lines end at \n only: a raw U+2028 inside a quoted value is part of the value.
    const pair = /^([a-z]+):[ \t]*([\s\S]*?)[ \t]*$/.exec(line);
    if (!pair?.[1]) throw new Error(`cannot read front matter line: ${line.slice(0, 60)}`);
    try {
      values[pair[1]] = JSON.parse(pair[2] ?? '');
    } catch {
      throw new Error(`${pair[1]} must be a quoted string`);
    }
  }
  const parsed = pageFieldsSchema.safeParse({
    title: values.title,
    summary: values.summary ?? '',
    body: text.slice(front[0].length),
  });
  if (!parsed.success)
    throw new Error(
      parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`).join('; '),
    );
  return { slug, kind: match.groups?.draft ? 'draft' : 'published', fields: parsed.data };
}

export async function exportContent(store: ContentStore): Promise<ContentFile[]> {
  const files: ContentFile[] = [];
  for (const listing of await store.listAll()) {
    const published = await store.getPage(listing.slug, { draft: false });
    const latest = await store.getPage(listing.slug, { draft: true });
    const fieldsOf = (page: NonNullable<typeof latest>) => ({
      title: page.title,
      summary: page.summary,
      body: page.bodyMarkdown,
    });
    if (published)
      files.push({ name: `${listing.slug}.md`, text: toFrontMatterFile(fieldsOf(published)) });
    if (latest?.showingDraft)
      files.push({ name: `${listing.slug}.draft.md`, text: toFrontMatterFile(fieldsOf(latest)) });
  }
  return files;
}

/** Validates every file first; imports all of them (in one transaction) or, if any is bad, none. */
export async function importContent(store: ContentStore, files: ContentFile[]) {
  const problems: string[] = [];
  const parsed: ParsedFile[] = [];
  for (const file of files) {
    try {
      parsed.push(parseContentFile(file));
    } catch (error) {
      problems.push(`${file.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (problems.length > 0) return { imported: 0, problems, missingMedia: [] };
  // Published versions first, then the drafts on top of them.
  parsed.sort((a, b) =>
    a.kind === b.kind ? a.slug.localeCompare(b.slug) : a.kind === 'published' ? -1 : 1,
  );
  // Export writes Markdown only: the images its pages name travel by backup or `db copy`, and
  // may come after the text. Those this database lacks are named, not refused.
  await store.putPages(
    parsed.map((file) => ({ slug: file.slug, ...file.fields, publish: file.kind === 'published' })),
    { editor: 'import', allowMissingMedia: true },
  );
  const html: string[] = [];
  for (const file of parsed) {
    const page = await store.getPage(file.slug, { draft: file.kind === 'draft' });
    if (page) html.push(page.bodyHtml);
  }
  const missingMedia = await store.missingMedia(html.join('\n'));
  return { imported: parsed.length, problems, missingMedia };
}
