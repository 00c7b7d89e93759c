// Owns /preview?audit: the audit trail (issue 28, docs/decisions/0041), newest first, a page of
// entries at a time by keyset (an "Older" link carries the last id shown), filtered by who,
// what, page and since through a plain GET form. Only for those the permission table lets
// read it (`audit.read`); anyone else gets a 403 in words. Nothing here changes anything: the
// trail has no form that writes, so nothing in it can be edited from the preview.
import 'server-only';
import { AUDIT_ACTION_NAMES, AUDIT_ACTIONS } from '../../../lib/audit/actions';
import { auditAddress, auditQueryOf } from '../../../lib/audit/params';
import { type AuditEntry, auditTrail } from '../../../lib/audit/trail';
import { can, refusalOf } from '../../../lib/editors/permissions';
import { setDocumentStatus } from '../../../lib/http/request-context';
import { AUDIT_SCREEN, PREVIEW_DASHBOARD, previewPath } from '../../../lib/http/routes';
import { LocalTime } from '../local-time';
import type { ScreenProps } from './asked';

/** A detail's facts in one line: `from: editor · to: author`. */
function detailLine(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ')
    .slice(0, 300);
}

function EntryRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr>
      <td data-label="When">
        <LocalTime iso={entry.at} />
      </td>
      <td data-label="Who">{entry.actorEmail ?? <span className="audit-nobody">—</span>}</td>
      <td data-label="What" data-action={entry.action}>
        {AUDIT_ACTIONS[entry.action] ?? entry.action}
      </td>
      <td data-label="Page">
        {entry.slug ? (
          <a href={previewPath(entry.slug)}>/{entry.slug}</a>
        ) : (
          <span className="audit-nobody">—</span>
        )}
      </td>
      <td data-label="From">
        <code>{entry.address}</code>
      </td>
      <td data-label="Detail" className="audit-detail">
        {detailLine(entry.detail)}
      </td>
    </tr>
  );
}

export async function AuditScreen({ asked: { editor, params } }: ScreenProps) {
  if (editor !== null && !can(editor.editor, 'audit.read')) {
    setDocumentStatus(403);
    return (
      <>
        <title>Audit trail · Folio preview</title>
        <h1>Audit trail</h1>
        <p role="alert" className="form-error">
          {refusalOf(editor.editor, 'audit.read')}
        </p>
        <p>
          <a href={PREVIEW_DASHBOARD}>Back to the pages</a>
        </p>
      </>
    );
  }
  const { query, form, problem } = auditQueryOf(params);
  if (problem !== null) setDocumentStatus(400);
  const { entries, next } =
    problem === null
      ? await auditTrail().page(query, { before: query.before })
      : { entries: [], next: null };
  return (
    <>
      <title>Audit trail · Folio preview</title>
      <h1>Audit trail</h1>
      <p>
        Who signed in, published, changed settings, shared or uploaded, and from where — newest
        first. Entries are kept for the days AUDIT_RETENTION_DAYS says (a year unless set), and none
        can be changed here.
      </p>
      <form method="get" action="/preview" className="dashboard-filters audit-filters">
        <input type="hidden" name="audit" value="" />
        <label>
          Who
          <input type="email" name="who" defaultValue={form.who} placeholder="email" />
        </label>
        <label>
          What
          <select name="what" defaultValue={form.what}>
            <option value="">Everything</option>
            {AUDIT_ACTION_NAMES.map((name) => (
              <option key={name} value={name}>
                {AUDIT_ACTIONS[name]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Page
          <input type="text" name="page" defaultValue={form.page} placeholder="address" />
        </label>
        <label>
          Since
          <input
            type="text"
            name="since"
            defaultValue={form.since}
            placeholder="2026-01-31 or 30d"
          />
        </label>
        <button type="submit">Show</button>
        <a href={AUDIT_SCREEN}>Clear</a>
      </form>
      {problem !== null ? (
        <p role="alert" className="form-error">
          {problem}
        </p>
      ) : entries.length === 0 ? (
        <p>No entries{query.before === undefined ? '' : ' older than these'} match.</p>
      ) : (
        <table className="page-table audit-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Page</th>
              <th scope="col">From</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <EntryRow key={entry.id} entry={entry} />
            ))}
          </tbody>
        </table>
      )}
      <nav aria-label="Pages of the trail" className="audit-pages">
        {query.before !== undefined ? <a href={auditAddress(form)}>Newest</a> : null}
        {next !== null ? <a href={auditAddress(form, next)}>Older entries</a> : null}
      </nav>
    </>
  );
}
