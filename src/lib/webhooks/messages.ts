// Owns what a content event (content/events.ts) becomes as a webhook (docs/decisions/0046): its
// name among WEBHOOK_EVENTS, and the body every attempt sends, in the shape the Standard
// Webhooks specification recommends, `{type, timestamp, data}`. The body names published
// content only (the page's id, address, published title and URL, the event's id): never a
// draft's text, which is not public, nor the reasons a schedule gave, which may quote it.
//
// How Folio's events map: a publish of a page that was not out (new, or taken down before) is
// `page.published`; a publish of one that was out already, and a change of a published page's
// address, are `page.updated`; a scheduled publish is either as it happened; a missed schedule
// is `page.scheduled_publish_failed`. A rename of a page that is not published sends nothing.
// All of it as of the event, from the outbox and the revisions it names, not the page's row
// now: an event is dispatched seconds later, after changes that may have followed it.
import 'server-only';
import type { ContentEvent } from '../content/events';
import type { Query } from '../data/db';
import { getEnv } from '../runtime/env';
import type { WebhookEvent, WebhookMessage } from './store';

const HOME_SLUG = 'home';

function pageUrl(slug: string): string {
  const path = slug === HOME_SLUG ? '/' : `/${slug}`;
  return `${getEnv().SITE_URL ?? ''}${path}`;
}

/**
 * The revision that was out when the event happened, from the page's last publish-or-unpublish
 * event before it (null: the page was not out). Read from the outbox, not the page's row: the
 * event may be dispatched after later changes.
 */
async function outBefore(q: Query, event: ContentEvent): Promise<{ revisionId: unknown } | null> {
  const [last] = await q<{ type: string; payload: string }>`
    SELECT type, payload FROM events
    WHERE page_id = ${event.pageId} AND id < ${event.id}
      AND type IN ('page.published', 'page.scheduled_publish_done', 'page.unpublished')
    ORDER BY id DESC LIMIT 1`;
  if (last === undefined || last.type === 'page.unpublished') return null;
  try {
    const payload = JSON.parse(last.payload) as { revisionId?: unknown };
    return { revisionId: payload.revisionId };
  } catch {
    return { revisionId: null };
  }
}

async function titleOfRevision(q: Query, revisionId: unknown): Promise<string | null> {
  const id = Number(revisionId);
  if (revisionId === null || !Number.isSafeInteger(id)) return null;
  const [row] = await q<{ title: string }>`SELECT title FROM revisions WHERE id = ${id}`;
  return row?.title ?? null;
}

/** The webhook the event is, or null when it is none. */
export async function messageOf(q: Query, event: ContentEvent): Promise<WebhookMessage | null> {
  let type: WebhookEvent;
  let data: Record<string, unknown>;
  const page = (title: string | null) => ({
    id: event.pageId,
    slug: event.slug,
    title,
    url: event.slug === null ? null : pageUrl(event.slug),
  });
  switch (event.type) {
    case 'page.published':
    case 'page.scheduled_publish_done':
      type = (await outBefore(q, event)) ? 'page.updated' : 'page.published';
      data = {
        page: page(await titleOfRevision(q, event.payload.revisionId)),
        ...(event.type === 'page.scheduled_publish_done' ? { scheduled: true } : {}),
      };
      break;
    case 'page.renamed': {
      const out = event.pageId === null ? null : await outBefore(q, event);
      if (out === null) return null;
      const title = await titleOfRevision(q, out.revisionId);
      type = 'page.updated';
      data = { page: page(title), previousSlug: event.payload.from ?? null };
      break;
    }
    case 'page.unpublished':
      type = 'page.unpublished';
      data = { page: page(await titleOfRevision(q, event.payload.revisionId)) };
      break;
    case 'page.deleted':
      type = 'page.deleted';
      data = { page: { id: event.pageId, slug: event.slug } };
      break;
    case 'page.scheduled_publish_missed':
      type = 'page.scheduled_publish_failed';
      data = {
        page: { id: event.pageId, slug: event.slug },
        due: typeof event.payload.due === 'string' ? event.payload.due : null,
      };
      break;
    case 'settings.changed':
      type = 'settings.changed';
      data = {};
      break;
    default:
      return null;
  }
  const body = JSON.stringify({
    type,
    timestamp: event.createdAt,
    data: { eventId: event.id, ...data },
  });
  return { eventId: event.id, type, pageKey: event.pageId ?? 0, body };
}
