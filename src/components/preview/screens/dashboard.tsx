// Owns /preview: one page of pages with their state, searchable, filterable and sortable; the
// developer tools are a discreet link away (?developer), not on the editors' screen.
import 'server-only';
import { contentStore } from '../../../lib/content/content';
import { can } from '../../../lib/editors/permissions';
import {
  API_KEYS_SCREEN,
  DEVELOPER_TOOLS,
  EDITOR_HELP,
  WEBHOOKS_SCREEN,
} from '../../../lib/http/routes';
import { webhooksView } from '../../../lib/webhooks/manage';
import { Dashboard, dashboardQuery } from '../dashboard';
import { noticeText } from '../preview-banner';
import type { ScreenProps } from './asked';

export async function DashboardScreen({ asked: { params, notice, editor } }: ScreenProps) {
  const text = noticeText(notice);
  // The dashboard is only shown signed in (screens.ts): the person is there.
  const person = editor?.editor ?? null;
  const query = dashboardQuery(params);
  // Webhooks the deliverer turned off (decision 0046): said where Administrators look first.
  const turnedOff =
    person && can(person, 'webhooks.manage') ? await webhooksView().turnedOff() : [];
  return (
    <>
      <title>Pages · Folio preview</title>
      {text ? (
        <p role="status" className="notice">
          {text}
        </p>
      ) : null}
      {turnedOff.length > 0 ? (
        <p role="alert" className="notice webhook-turned-off">
          <strong>
            {turnedOff.length === 1
              ? 'A webhook was turned off'
              : `${turnedOff.length} webhooks were turned off`}{' '}
            after repeated failures or a 410 Gone
          </strong>{' '}
          ({turnedOff.map((endpoint) => endpoint.url).join(', ')}): events are not sent to{' '}
          {turnedOff.length === 1 ? 'it' : 'them'}. <a href={WEBHOOKS_SCREEN}>See the webhooks</a>{' '}
          to read the delivery log and turn it on again.
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
        {person && can(person, 'webhooks.manage') ? (
          <>
            {' · '}
            <a href={WEBHOOKS_SCREEN}>Webhooks</a>
          </>
        ) : null}
        {person && can(person, 'api-keys.manage') ? (
          <>
            {' · '}
            <a href={API_KEYS_SCREEN}>API keys</a>
          </>
        ) : null}
      </p>
    </>
  );
}
