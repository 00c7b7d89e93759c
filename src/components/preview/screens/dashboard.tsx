// Owns /preview: every page with its state, searchable and sortable, and the test-error buttons.
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { Dashboard, dashboardQuery } from '../dashboard';
import { noticeText } from '../preview-banner';
import { TestErrors } from '../test-errors';
import type { ScreenProps } from './asked';

export async function DashboardScreen({ asked: { params, notice } }: ScreenProps) {
  const text = noticeText(notice);
  return (
    <>
      <title>Pages · Folio preview</title>
      {text ? (
        <p role="status" className="notice">
          {text}
        </p>
      ) : null}
      <Dashboard pages={await contentStore().listAll()} query={dashboardQuery(params)} />
      <TestErrors />
    </>
  );
}
