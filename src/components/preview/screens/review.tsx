// Owns /preview/<slug>?review: a page waiting for review, as its reviewer reads and answers it
// (review-panel.tsx). Someone the permission table does not let review it gets the reason in
// words, as a 403; the actions behind its buttons ask again. No page banner here: its Publish
// and Publish at would be the panel's twice over (two buttons, two fields of one name).
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { can, refusalOf } from '../../../lib/editors/permissions';
import { setDocumentStatus } from '../../../lib/http/request-context';
import { ReviewPanel } from '../review-panel';
import type { ScreenProps } from './asked';
import { pageOf } from './page-of';

export async function ReviewScreen({ asked }: ScreenProps) {
  const page = await pageOf(asked);
  const store = contentStore();
  const [review, published, schedule, ownership] = await Promise.all([
    store.reviewOf(page.id),
    page.state === 'draft-only' ? null : store.getPage(page.slug, { draft: false }),
    store.scheduleOf(page.id),
    store.pageOwnership(page.id),
  ]);
  const person = asked.editor?.editor;
  const may = (action: 'page.review' | 'page.publish' | 'page.schedule') =>
    person !== undefined && ownership !== null && can(person, action, ownership);
  const allowed = {
    review: may('page.review'),
    publish: may('page.publish'),
    schedule: may('page.schedule'),
  };
  if (!allowed.review) setDocumentStatus(403);
  return (
    <>
      <title>{`Review: ${page.title} · Folio preview`}</title>
      <ReviewPanel
        page={page}
        published={published}
        review={review}
        schedule={schedule}
        allowed={allowed}
        refusal={person ? refusalOf(person, 'page.review') : ''}
      />
    </>
  );
}
