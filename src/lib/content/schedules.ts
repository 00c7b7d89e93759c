// Owns scheduled publishing in the store: setting, cancelling and reading a page's schedule,
// the notice of one that came due and did not publish, and `publishDue`, whose transaction
// claims each due page so that it is published once, however many processes ask
// (scheduler.ts is the clock that asks).
import 'server-only';
import { missingMediaIn, missingMediaMessage } from '../media/media-refs';
import { ContentError, isContentError } from './errors';
import { recordEvent } from './events';
import { forgetMissedSchedule, publishIn, requirePage } from './page-writes';
import { publishTimeProblem, unreadableTimeMessage } from './publish-time';
import { refuseRedirectSource } from './redirects';
import { closeReview } from './review';
import { parseSeo } from './seo-fields';
import type { StoreContext } from './store-context';
import type { MissedSchedule, Schedule, ScheduledPublish } from './types';

export function schedules({ read, write, now, opened }: StoreContext) {
  /**
   * The pages whose publish time has come, by the database's clock, not this process's: with
   * several instances a fast clock on one would publish an embargoed page early. On PostgreSQL
   * the comparison is the server's `now()` (stored times are ISO text, so they are read as
   * timestamptz rather than compared as text with another format). A SQLite file is local, so
   * its clock is this process's clock: `now()` (injectable in tests) is the database's clock.
   */
  async function dueNow(limit: number) {
    const db = await opened();
    type Due = { id: number; slug: string; publish_at: string; scheduled_by: string | null };
    return db.engine === 'postgres'
      ? db.query<Due>`
          SELECT id, slug, publish_at, scheduled_by FROM pages
          WHERE publish_at IS NOT NULL AND publish_at::timestamptz <= now()
          ORDER BY publish_at, id LIMIT ${limit}`
      : db.query<Due>`
          SELECT id, slug, publish_at, scheduled_by FROM pages
          WHERE publish_at IS NOT NULL AND publish_at <= ${now().toISOString()}
          ORDER BY publish_at, id LIMIT ${limit}`;
  }

  return {
    /**
     * Schedules the page's draft to be published at `at` (whatever the draft says then), on
     * behalf of `editor`; replaces an earlier schedule. Visitors see nothing until then, so the
     * page's version does not move: an editor's open tab keeps saving.
     */
    async schedulePublish(
      slug: string,
      at: Date,
      {
        editor = null,
        pageId,
        version,
        onlyIfUnscheduled = false,
        keepsRedirects = false,
      }: {
        /** The scheduler may not manage redirects: a page at a redirect's address is refused. */
        keepsRedirects?: boolean;
        editor?: string | null;
        pageId?: number;
        /**
         * The page's version the editor was shown (issue 28, hostile pass 2): a reviewer's tab
         * schedules the text it showed, not one a writer saved since (refused as 'conflict',
         * as Publish is). The CLI names none.
         */
        version?: number;
        /** The banner's form is for a page with no schedule: one set meanwhile (another tab,
         * another editor) is not silently replaced. The CLI replaces on purpose. */
        onlyIfUnscheduled?: boolean;
      } = {},
    ): Promise<Schedule> {
      // "In the past" is judged by this process's clock: it only words a refusal for the
      // editor; a time accepted by a slow clock is published at the next check, by the
      // database's clock (dueNow), never early.
      const problem = Number.isNaN(at.getTime())
        ? unreadableTimeMessage()
        : publishTimeProblem(at, now());
      if (problem) throw new ContentError('invalid', problem);
      const publishAt = at.toISOString();
      return write(async (q) => {
        const page = await requirePage(q, slug, { pageId, version });
        if (keepsRedirects) await refuseRedirectSource(q, page.slug);
        const [draft] = await q<{ body_html: string; seo: string }>`
          SELECT body_html, seo FROM drafts WHERE page_id = ${page.id}`;
        if (!draft)
          throw new ContentError(
            'invalid',
            `“${page.slug}” is published and has no newer draft: there is nothing to schedule.`,
          );
        const missing = await missingMediaIn(q, draft.body_html, parseSeo(draft.seo).image);
        if (missing.length > 0)
          throw new ContentError('missing-media', missingMediaMessage(missing, 'scheduled'));
        if (onlyIfUnscheduled) {
          const [pending] = await q<{ publish_at: string | null; scheduled_by: string | null }>`
            SELECT publish_at, scheduled_by FROM pages WHERE id = ${page.id}`;
          if (pending?.publish_at)
            throw new ContentError(
              'already-scheduled',
              `This page was scheduled meanwhile${pending.scheduled_by ? ` by ${pending.scheduled_by}` : ''}, for ${new Date(pending.publish_at).toISOString().replace('T', ' ').slice(0, 16)} UTC. Reload to see it; cancel it there to set another time.`,
            );
        }
        await q`UPDATE pages SET publish_at = ${publishAt}, scheduled_by = ${editor}
                WHERE id = ${page.id}`;
        // A new schedule answers the notice of one that did not publish.
        await forgetMissedSchedule(q, page.id);
        // Scheduling a draft that waited for review answers the request (decision 0040).
        await closeReview(q, page.id, 'scheduled', {
          editor,
          at: now().toISOString(),
          version: page.version,
        });
        return { publishAt, scheduledBy: editor };
      });
    },

    /** Cancels the page's pending schedule; true when there was one. */
    async cancelSchedule(slug: string, { pageId }: { pageId?: number } = {}): Promise<boolean> {
      return write(async (q) => {
        const page = await requirePage(q, slug, { pageId });
        const cleared = await q`UPDATE pages SET publish_at = NULL, scheduled_by = NULL
                                WHERE id = ${page.id} AND publish_at IS NOT NULL RETURNING id`;
        return cleared.length > 0;
      });
    },

    /** The page's pending schedule, or null (editors only: visitors never learn of it). */
    async scheduleOf(pageId: number): Promise<Schedule | null> {
      const [row] = await read(
        (q) => q<{ publish_at: string | null; scheduled_by: string | null }>`
          SELECT publish_at, scheduled_by FROM pages WHERE id = ${pageId}`,
      );
      return row?.publish_at ? { publishAt: row.publish_at, scheduledBy: row.scheduled_by } : null;
    },

    /** The page's schedule that came due and did not publish, until an editor answers it. */
    async missedScheduleOf(pageId: number): Promise<MissedSchedule | null> {
      const [row] = await read(
        (q) => q<{
          missed_publish_at: string | null;
          missed_scheduled_by: string | null;
          missed_reason: string | null;
        }>`
          SELECT missed_publish_at, missed_scheduled_by, missed_reason FROM pages
          WHERE id = ${pageId}`,
      );
      return row?.missed_publish_at
        ? {
            publishAt: row.missed_publish_at,
            scheduledBy: row.missed_scheduled_by,
            reason: row.missed_reason ?? '',
          }
        : null;
    },

    /**
     * Dismisses the notice of the missed schedule that was due at `missedAt` (the one the
     * editor read). "newer": another schedule missed since, and its notice stays to be read;
     * "nothing": none is left (answered or dismissed meanwhile).
     */
    async dismissMissedSchedule(
      slug: string,
      { pageId, missedAt }: { pageId?: number; missedAt: string },
    ): Promise<'dismissed' | 'newer' | 'nothing'> {
      return write(async (q) => {
        const page = await requirePage(q, slug, { pageId });
        if (await forgetMissedSchedule(q, page.id, missedAt)) return 'dismissed';
        const [left] = await q<{ missed_publish_at: string | null }>`
          SELECT missed_publish_at FROM pages WHERE id = ${page.id}`;
        return left?.missed_publish_at ? 'newer' : 'nothing';
      });
    },

    /**
     * Publishes every page whose time has come, each in its own transaction. The transaction
     * first clears the page's `publish_at` where it still holds the time it found: with
     * several instances (and the CLI) asking at once, one clears it and publishes, and the
     * others find nothing to clear and move on: once, whoever asks.
     */
    async publishDue(limit = 50): Promise<ScheduledPublish[]> {
      const due = await dueNow(limit);
      const published: ScheduledPublish[] = [];
      for (const page of due) {
        const outcome = await write(async (q, changed) => {
          const [claimed] = await q<{ slug: string }>`
            UPDATE pages SET publish_at = NULL, scheduled_by = NULL
            WHERE id = ${Number(page.id)} AND publish_at = ${page.publish_at} RETURNING slug`;
          if (!claimed) return null;
          const [draft] = await q`SELECT page_id FROM drafts WHERE page_id = ${Number(page.id)}`;
          if (!draft) return null;
          try {
            await publishIn(now, q, changed, claimed.slug, {
              editor: page.scheduled_by,
              via: 'schedule',
              pageId: Number(page.id),
              dueAt: page.publish_at,
            });
          } catch (error) {
            // The draft came to name an image the library lacks after it was scheduled: it is
            // refused before anything is written, the claim (clearing the schedule) commits, as
            // asking again each minute would not mend it; the draft stays for its editor, and
            // the page keeps what was missed and why, for the banner and the dashboard.
            if (isContentError(error) && error.code === 'missing-media') {
              await q`UPDATE pages SET missed_publish_at = ${page.publish_at},
                      missed_scheduled_by = ${page.scheduled_by}, missed_reason = ${error.message}
                      WHERE id = ${Number(page.id)}`;
              await recordEvent(q, {
                type: 'page.scheduled_publish_missed',
                pageId: Number(page.id),
                slug: claimed.slug,
                payload: { due: page.publish_at, reason: error.message },
                editor: page.scheduled_by,
                at: now().toISOString(),
              });
              return { slug: claimed.slug, refused: error.message };
            }
            throw error;
          }
          return { slug: claimed.slug };
        });
        if (outcome)
          published.push({
            ...outcome,
            publishAt: page.publish_at,
            scheduledBy: page.scheduled_by,
          });
      }
      return published;
    },
  };
}
