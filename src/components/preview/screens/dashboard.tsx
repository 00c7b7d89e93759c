// Owns /preview: one page of pages with their state, searchable, filterable and sortable, and the test-error buttons.
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { Dashboard, dashboardQuery } from '../dashboard';
import { noticeText } from '../preview-banner';
import { TestErrors } from '../test-errors';
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
      <TestErrors />
    </>
  );
}
