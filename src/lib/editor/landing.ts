// Owns where a command form lands: the page's preview with a notice, or the dashboard when the
// page is gone. Not a 'use server' module: nothing here is an action anyone may call.
import 'server-only';
import { unstable_redirect as redirect } from 'waku/router/server';
import { contentStore } from '../content/content';
import { getDatabase } from '../data/db';
import type { Role } from '../editors/permissions';
import { mustSetUpSecondFactor } from '../editors/second-factor';
import { previewPath } from '../http/routes';
import { siteOrigin } from '../http/site-url';
import { SECOND_FACTOR_SCREEN } from './guard';

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

/** A same-site path to go back to after signing in; anything else falls back to /preview. */
export function safeNext(text: string): string {
  // A preview address, or a page's editor: nothing else, so no sign-in leads off the site.
  return /^\/preview(?:\/[a-z0-9-]+(?:\?edit)?)?$/.test(text) ? text : '/preview';
}

/**
 * Where a completed sign-in goes, as an absolute URL (so the browser loads the page anew, with
 * the new cookie): `next`, or the security screen when the site's rule asks this person for a
 * second factor they do not have yet (issue 28).
 */
export async function landingAfterSignIn(
  person: { id: number; role: Role },
  next: string,
): Promise<URL> {
  const db = await getDatabase();
  if (await mustSetUpSecondFactor(db.query, person))
    return new URL(SECOND_FACTOR_SCREEN, siteOrigin());
  return new URL(safeNext(next), siteOrigin());
}
