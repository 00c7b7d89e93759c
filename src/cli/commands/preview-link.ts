// Owns `preview-link`, `preview-link list` and `preview-link revoke`: read-only share links to
// a page's draft. Loaded only when one of them runs.
import 'server-only';
import { createContentStore } from '../../lib/content/content';
import { shareLinkPath } from '../../lib/http/routes';
import {
  createPreviewLink,
  listPreviewLinks,
  parseTtl,
  revokePreviewLink,
  ShareLinkCapError,
} from '../../lib/share-links/share-links';
import { CliError, one, pageIdOf, type Run, UsageError } from '../command';

export const previewLinkList: Run = async ({ positionals }, { db, io }) => {
  const slug = positionals[0];
  const links = await listPreviewLinks(
    db,
    slug ? { pageId: await pageIdOf(createContentStore(db), slug) } : {},
  );
  if (links.length === 0) io.stdout('no open share links\n');
  for (const link of links)
    io.stdout(
      `${String(link.id).padStart(5)}  ${link.slug.padEnd(32)} until ${link.expiresAt}  by ${link.createdBy ?? 'cli'}\n`,
    );
};

export const previewLinkRevoke: Run = async ({ positionals }, { db, io }) => {
  const text = one(positionals);
  const id = /^\d{1,15}$/.test(text) ? Number(text) : 0;
  if (id <= 0) throw new UsageError('a link id is a whole number, as `preview-link list` shows it');
  if (!(await revokePreviewLink(db, id))) throw new CliError(`there is no open share link ${id}`);
  io.stdout(`share link ${id} revoked\n`);
};

export const previewLinkCreate: Run = async ({ positionals, values }, { db, io }) => {
  const slug = one(positionals);
  const ttl = parseTtl(typeof values.ttl === 'string' ? values.ttl : '24h');
  if ('error' in ttl) throw new UsageError(ttl.error);
  // The CLI's links are one maker's ('cli'): the same caps as an editor's, refused in one line.
  const { token, link } = await createPreviewLink(db, {
    pageId: await pageIdOf(createContentStore(db), slug),
    createdBy: 'cli',
    ttlSeconds: ttl.seconds,
  }).catch((error: unknown) => {
    if (error instanceof ShareLinkCapError)
      throw new CliError(
        `no link made: ${error.message} (\`preview-link list\`, then \`preview-link revoke <id>\`)`,
      );
    throw error;
  });
  io.stdout(`${io.siteUrl}${shareLinkPath(slug, token)}\n`);
  io.stderr(`link ${link.id}, works until ${link.expiresAt}\n`);
};
