// Owns `folio audit [--since <date or 30d>] [--json]`: the audit trail (docs/decisions/0041),
// oldest first — as a log reads, and as a pipe wants it — one entry a line: words for a
// terminal, or JSON lines (one object each) for a script. Read a batch at a time by keyset, so
// years of entries print without being held in memory. Loaded only when it runs.
import 'server-only';
import { AUDIT_ACTIONS } from '../../lib/audit/actions';
import { SINCE_PROBLEM, sinceOf } from '../../lib/audit/params';
import { type AuditEntry, listAudit } from '../../lib/audit/trail';
import { type Run, UsageError } from '../command';

/** Entries read per statement. */
const BATCH = 500;

function line(entry: AuditEntry): string {
  const detail = Object.entries(entry.detail)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  // A terminal takes control characters as commands: what a person typed (an email tried at
  // sign-in, a file name) is shown with them replaced.
  return [
    entry.at,
    entry.address.padEnd(15),
    (entry.actorEmail ?? '-').padEnd(28),
    (AUDIT_ACTIONS[entry.action] ?? entry.action).padEnd(24),
    entry.slug ? `/${entry.slug}` : '-',
    detail,
  ]
    .join('  ')
    .replace(/\p{Cc}/gu, '?')
    .trimEnd();
}

export const auditList: Run = async ({ values }, { db, io }) => {
  let since: string | undefined;
  if (typeof values.since === 'string') {
    const parsed = sinceOf(values.since);
    if (parsed === null) throw new UsageError(`--since: ${SINCE_PROBLEM}`);
    since = parsed;
  }
  let after = 0;
  let printed = 0;
  for (;;) {
    const { entries, next } = await listAudit(db.query, { since }, { after, limit: BATCH });
    for (const entry of entries)
      io.stdout(values.json ? `${JSON.stringify(entry)}\n` : `${line(entry)}\n`);
    printed += entries.length;
    if (next === null) break;
    after = next;
  }
  if (printed === 0 && !values.json)
    io.stderr(since ? `no entries since ${since}\n` : 'no entries yet\n');
};
