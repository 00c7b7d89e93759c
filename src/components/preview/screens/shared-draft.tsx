// Owns a reviewer's read-only view through a share link: its page's draft and nothing else.
import 'server-only';
import { unstable_redirect as redirect } from 'waku/router/server';
import { contentStore } from '../../../lib/content/content';
import { formatUtc } from '../../../lib/content/dates';
import { setDocumentStatus } from '../../../lib/http/request-context';
import { SHARE_PARAM, shareLinkPath } from '../../../lib/http/routes';
import { shareLinks } from '../../../lib/share-links/share-links';
import { Article, datesOf } from '../../article';
import { ArticleBody, authorLinksOf, topicLinksOf } from '../../article-body';
import { SiteFrame, siteFrameData } from '../../site-frame';
import { EditorChrome, PreviewBar } from '../editor-chrome';
import type { ScreenProps } from './asked';

export async function SharedDraftScreen({ asked: { slug, params } }: ScreenProps) {
  const token = params.get(SHARE_PARAM) ?? '';
  const check = await shareLinks().check(token);
  const page = check.ok ? await contentStore().getPageById(check.link.pageId) : null;
  // The link is bound to its page, not to an address: opened at another address (the page was
  // renamed, perhaps another page took the old one) it goes to its page, never shows another.
  if (page && page.slug !== slug) redirect(shareLinkPath(page.slug, token), 307);
  if (!check.ok || !page) {
    setDocumentStatus(403);
    return (
      <EditorChrome editor={null}>
        <section className="card">
          <title>Preview link expired · Folio</title>
          <h1>This preview link has expired or is not valid</h1>
          <p>Ask the editor who shared it for a new link.</p>
        </section>
      </EditorChrome>
    );
  }
  // The public header (published titles, public addresses): a link shows its page's draft and
  // nothing else, so neither other drafts' titles nor previews the reviewer cannot open. Its
  // own page's link, if the header has one, says the title its draft will give it.
  const frame = await siteFrameData({ draft: false });
  const links = frame.links.map((link) =>
    link.slug === page.slug && !link.labelled ? { ...link, title: page.title } : link,
  );
  return (
    <>
      <title>{`${page.title} · shared preview`}</title>
      <PreviewBar editor={null}>
        <p className="preview-banner">
          <strong>Shared preview</strong> of a draft, read-only. The link works until{' '}
          {formatUtc(check.link.expiresAt)}.
        </p>
      </PreviewBar>
      <SiteFrame {...frame} links={links}>
        <Article
          page={page}
          dates={datesOf(page, { asWillBePublished: true })}
          body={<ArticleBody html={page.bodyHtml} />}
          topics={await topicLinksOf(page)}
          authors={await authorLinksOf(page)}
        />
      </SiteFrame>
    </>
  );
}
