// Owns how times are shown to editors: one formatter, made once. `toLocaleString` builds a new
// ICU formatter on every call, which was 6 % of a preview render's time.

const UTC = new Intl.DateTimeFormat('en', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

/** "11/22/2026, 6:20:39 PM UTC"; an unreadable time reads as "an unknown time". Without
 * `zone`, no "UTC": for a screen that names its time zone once (preview/local-time.tsx). */
export function formatUtc(
  value: string | number | Date,
  { zone = true }: { zone?: boolean } = {},
): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return 'an unknown time';
  return zone ? `${UTC.format(date)} UTC` : UTC.format(date);
}

const DAY = new Intl.DateTimeFormat('en', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
});

/** "November 22, 2026" (UTC): the day a visitor reads beside a page. */
export function formatDay(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : DAY.format(date);
}
