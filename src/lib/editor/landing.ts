// Owns where a command form lands: the page's preview with a notice, or the dashboard when the
// page is gone. Not a 'use server' module: nothing here is an action anyone may call.
import 'server-only';
import { unstable_redirect as redirect } from 'waku/router/server';
import { contentStore } from '../content/content';
import { previewPath } from '../http/routes';

/**
 * Back to the page's preview with a notice: where the page a form was for went away and no page
 * has its address now, to the dashboard instead, which says so (at the address, a 404 would
 * say nothing of why: hostile pass). A discarded draft-only page is deleted: the dashboard too.
 */
export async function backToPage(slug: string, notice: string): Promise<never> {
  if (notice === 'deleted') redirect('/preview?notice=deleted', 303);
  if (notice === 'replaced' || notice === 'gone') {
    // A database that cannot say (busy, unreachable) leaves the answer at the page's address.
    const there = await contentStore()
      .getPage(slug, { draft: true })
      .catch(() => 'unknown' as const);
    if (there === null) redirect('/preview?notice=gone', 303);
  }
  redirect(`${previewPath(slug)}?notice=${notice}`, 303);
}
