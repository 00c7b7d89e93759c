// Owns /preview: one page of pages with their state, searchable, filterable and sortable; the
// developer tools are a discreet link away (?developer), not on the editors' screen.
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { can } from '../../../lib/editors/permissions';
import { DEVELOPER_TOOLS, EDITOR_HELP } from '../../../lib/http/routes';
import { Dashboard, dashboardQuery } from '../dashboard';
import { noticeText } from '../preview-banner';
import type { ScreenProps } from './asked';

export async function DashboardScreen({ asked: { params, notice, editor } }: ScreenProps) {
  const text = noticeText(notice);
  // The dashboard is only shown signed in (screens.ts): the person is there.
  const person = editor?.editor ?? null;
  const query = dashboardQuery(params);
  return (
    <>
      <title>Pages · Folio preview</title>
      {text ? (
        <p role="status" className="notice">
          {text}
        </p>
      ) : null}
      <Dashboard list={await contentStore().listPages(query)} query={query} person={person} />
      <p className="dashboard-footer">
        <a href={EDITOR_HELP}>Help: Markdown and shortcuts</a>
        {person && can(person, 'settings.edit') ? (
          <>
            {' · '}
            <a href={DEVELOPER_TOOLS}>Developer tools</a>
          </>
        ) : null}
      </p>
    </>
  );
}
