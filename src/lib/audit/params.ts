// Owns reading the audit trail's filters from what a person typed: the screen's address
// (`/preview?audit&who=…&what=…&page=…&since=…&before=…`) and the CLI's `--since`. Each value
// is bounded and checked here, once, so a bad one is refused in words (a 400 on the screen, exit
// 2 in the CLI) and never reaches a query. Browser-safe: no imports but the table of kinds.
import { type AuditAction, isAuditAction } from './actions';

export type AuditQuery = {
  who?: string;
  what?: AuditAction;
  page?: string;
  since?: string;
  /** The screen's keyset: show entries older than this id. */
  before?: number;
};

/** What the filter form shows back, as typed (bounded). */
export type AuditFormValues = { who: string; what: string; page: string; since: string };

const MAX_FIELD = 254;
const DAY_MS = 86_400_000;

/**
 * Whether `yyyy-mm-dd` is a day of the calendar: Date rolls 2026-11-31 over to 2026-12-01 and
 * 2026-02-30 to March without a word, so a typo would silently filter from another day.
 */
function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(year, month - 1, day));
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day;
}

/**
 * A moment from `text`: `30d` (that many days before `now`), a date (`2026-01-31`, its start in
 * UTC) or a full ISO time. Null when it is none of those.
 */
export function sinceOf(text: string, now = new Date()): string | null {
  const trimmed = text.trim();
  const days = /^(\d{1,5})d$/.exec(trimmed);
  if (days) return new Date(now.getTime() - Number(days[1]) * DAY_MS).toISOString();
  if (!/^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:\d{2})?)?$/.test(trimmed)) return null;
  if (!isCalendarDate(trimmed.slice(0, 10))) return null;
  const at = new Date(trimmed.length === 10 ? `${trimmed}T00:00:00Z` : trimmed);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

export const SINCE_PROBLEM =
  'Since takes a date such as 2026-01-31, or a number of days such as 30d.';

/** The screen's filters from its address, or the first problem with them in words. */
export function auditQueryOf(
  params: URLSearchParams,
  now = new Date(),
): { query: AuditQuery; form: AuditFormValues; problem: string | null } {
  const text = (name: string) => (params.get(name) ?? '').trim().slice(0, MAX_FIELD);
  const form = { who: text('who'), what: text('what'), page: text('page'), since: text('since') };
  const query: AuditQuery = {};
  if (form.who !== '') query.who = form.who.toLowerCase();
  if (form.page !== '') query.page = form.page.replace(/^\/+/, '');
  if (form.what !== '') {
    if (!isAuditAction(form.what))
      return { query, form, problem: 'There is no such kind of entry: choose one from the list.' };
    query.what = form.what;
  }
  if (form.since !== '') {
    const since = sinceOf(form.since, now);
    if (since === null) return { query, form, problem: SINCE_PROBLEM };
    query.since = since;
  }
  const before = params.get('before');
  if (before !== null) {
    if (!/^\d{1,15}$/.test(before))
      return { query, form, problem: 'That page of the trail does not exist: start again.' };
    query.before = Number(before);
  }
  return { query, form, problem: null };
}

/** The screen's address for these filters (and an older page, with `before`). */
export function auditAddress(form: AuditFormValues, before?: number): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) if (value !== '') params.set(name, value);
  if (before !== undefined) params.set('before', String(before));
  const rest = params.toString();
  return `/preview?audit${rest === '' ? '' : `&${rest}`}`;
}
