// Owns what a "publish at" time may be, for the editor's form and the CLI alike: one parser,
// one set of refusals, their words. Times are stored in UTC as `toISOString` writes them.

/** How far ahead a page may be scheduled; a typo of a year should not hide a page for ages. */
export const LONGEST_SCHEDULE_DAYS = 366 * 5;

const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * The instant an ISO 8601 date and time names (`2026-12-01T09:00Z`, `…+01:00`; without a zone,
 * UTC), or null when it names none: another format, or a day or hour that does not exist.
 */
export function parsePublishTime(text: string): Date | null {
  const match = ISO_TIME.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '0'] = match;
  const zone = match[7] ?? 'Z';
  const fields = [year, month, day, hour, minute, second].map(Number) as number[];
  const [y, mo, d, h, mi, s] = fields as [number, number, number, number, number, number];
  // Date.UTC rolls 30 February over into March; a time that does not exist is a mistake.
  const wall = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (
    wall.getUTCFullYear() !== y ||
    wall.getUTCMonth() !== mo - 1 ||
    wall.getUTCDate() !== d ||
    wall.getUTCHours() !== h ||
    wall.getUTCMinutes() !== mi ||
    s > 59
  )
    return null;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    const sign = digits.startsWith('-') ? -1 : 1;
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5));
    if (hours > 23 || minutes > 59) return null;
    offsetMinutes = sign * (hours * 60 + minutes);
  }
  return new Date(wall.getTime() - offsetMinutes * 60_000);
}

/** Why `at` cannot be a publish time now (in the editor's words), or null when it can. */
export function publishTimeProblem(at: Date, now: Date): string | null {
  if (at.getTime() <= now.getTime()) return 'That time has passed: choose a time in the future.';
  if (at.getTime() - now.getTime() > LONGEST_SCHEDULE_DAYS * 86_400_000)
    return 'That is more than five years ahead: choose a nearer time.';
  return null;
}

const HOW_TO_WRITE_A_TIME =
  'write it like 2026-12-01T09:00, with Z or an offset such as +01:00 (none means UTC).';

/** The refusal for a time that could not be read; names what was typed when given. */
export function unreadableTimeMessage(text?: string): string {
  return text === undefined
    ? `That is not a date and time Folio can read: ${HOW_TO_WRITE_A_TIME}`
    : `“${text.slice(0, 60)}” is not a date and time Folio can read: ${HOW_TO_WRITE_A_TIME}`;
}
