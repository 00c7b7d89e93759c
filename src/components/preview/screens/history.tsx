// Owns /preview/<slug>?history: every publish and save, any version as it was, a diff of two.
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { can } from '../../../lib/editors/permissions';
import { checkpointsAsked, historyQuery, PageHistory, versionsAsked } from '../page-history';
import type { ScreenProps } from './asked';
import { Banner, pageOf } from './page-of';

export async function HistoryScreen({ asked }: ScreenProps) {
  const page = await pageOf(asked);
  const store = contentStore();
  const query = historyQuery(asked.params);
  // The list carries no text; only the versions this view shows or compares are read whole,
  // each by id and only from this page's history (an id of another page's is not found).
  const [revisions, texts, checkpoints, checkpointTexts, reviews, ownership] = await Promise.all([
    store.listRevisions(page.id),
    Promise.all(versionsAsked(query).map((id) => store.getRevision(page.id, id))).then(
      (found) => new Map(found.flatMap((revision) => (revision ? [[revision.id, revision]] : []))),
    ),
    store.listCheckpoints(page.id),
    Promise.all(checkpointsAsked(query).map((id) => store.getCheckpoint(page.id, id))).then(
      (found) => new Map(found.flatMap((saved) => (saved ? [[saved.id, saved]] : []))),
    ),
    store.listReviewEvents(page.id),
    store.pageOwnership(page.id),
  ]);
  // Restore makes a draft: offered only to whom the table lets edit this page.
  const mayRestore =
    asked.editor !== null && ownership !== null && can(asked.editor.editor, 'page.edit', ownership);
  return (
    <>
      <title>{`History: ${page.title} · Folio preview`}</title>
      <Banner page={page} editing={false} notice={asked.notice} />
      <PageHistory
        page={page}
        revisions={revisions}
        texts={texts}
        checkpoints={checkpoints}
        checkpointTexts={checkpointTexts}
        reviews={reviews}
        query={query}
        mayRestore={mayRestore}
      />
    </>
  );
}
