// Owns /preview/<slug>: the page as it will look with its draft, under its banner.
import 'server-only';
import { rewriteLinksForPreview } from '../../../lib/http/routes';
import { Article } from '../../article';
import type { ScreenProps } from './asked';
import { Banner, pageOf } from './page-of';

export async function PageScreen({ asked }: ScreenProps) {
  const page = await pageOf(asked);
  return (
    <>
      <title>{`${page.title} · Folio preview`}</title>
      <Banner page={page} editing={false} notice={asked.notice} />
      <Article page={{ ...page, bodyHtml: rewriteLinksForPreview(page.bodyHtml) }} />
    </>
  );
}
