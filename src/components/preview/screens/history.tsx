// Owns /preview/<slug>?history: every publish, any version as it was, a word diff of two.
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { historyQuery, PageHistory } from '../page-history';
import type { ScreenProps } from './asked';
import { Banner, pageOf } from './page-of';

export async function HistoryScreen({ asked }: ScreenProps) {
  const page = await pageOf(asked);
  const revisions = await contentStore().listRevisions(page.id);
  return (
    <>
      <title>{`History: ${page.title} · Folio preview`}</title>
      <Banner page={page} editing={false} notice={asked.notice} />
      <PageHistory page={page} revisions={revisions} query={historyQuery(asked.params)} />
    </>
  );
}
