// Owns /preview: one page of pages with their state, searchable, filterable and sortable; the
// developer tools are a discreet link away (?developer), not on the editors' screen.
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { DEVELOPER_TOOLS, EDITOR_HELP } from '../../../lib/http/routes';
import { Dashboard, dashboardQuery } from '../dashboard';
import { noticeText } from '../preview-banner';
import type { ScreenProps } from './asked';

export async function DashboardScreen({ asked: { params, notice } }: ScreenProps) {
  const text = noticeText(notice);
  const query = dashboardQuery(params);
  return (
    <>
      <title>Pages · Folio preview</title>
      {text ? (
        <p role="status" className="notice">
          {text}
        </p>
      ) : null}
      <Dashboard list={await contentStore().listPages(query)} query={query} />
      <p className="dashboard-footer">
        <a href={EDITOR_HELP}>Help: Markdown and shortcuts</a> ·{' '}
        <a href={DEVELOPER_TOOLS}>Developer tools</a>
      </p>
    </>
  );
}
