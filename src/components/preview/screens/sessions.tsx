// Owns /preview?sessions (issue 28): the signed-in person's own sessions — when each was signed
// in, when and from where (address, browser) it was last used — and ending any of them, or
// every one but this. The one in use is marked, and its button says that it signs out here.
import 'server-only';
import { ownSessions } from '../../../lib/editors/people';
import { can } from '../../../lib/editors/permissions';
import { PEOPLE_SCREEN, PREVIEW_DASHBOARD } from '../../../lib/http/routes';
import { LocalTime } from '../local-time';
import { EndMySessionForm } from '../people-forms';
import { PhoneLabel } from '../phone-label';
import type { ScreenProps } from './asked';

const NOTICES: Record<string, string> = {
  'session-ended': 'That session has ended: whoever used it must sign in again.',
  'session-gone': 'That session had already ended.',
  'others-ended': 'Every other session has ended. This one stays signed in.',
};

/** A browser's user agent, shortened to what a person recognises (the whole is its title). */
function browserOf(agent: string): string {
  const browser = /(Edg|Firefox|Chrome|Chromium|Safari)\/[\d.]+/.exec(agent)?.[1] ?? null;
  const system = /(Windows|Android|iPhone|iPad|Mac OS X|Linux|CrOS)/.exec(agent)?.[1] ?? null;
  const names = [browser === 'Edg' ? 'Edge' : browser, system === 'Mac OS X' ? 'macOS' : system];
  const known = names.filter(Boolean).join(' on ');
  return known || agent.slice(0, 60) || 'Not known';
}

export async function SessionsScreen({ asked: { editor, notice } }: ScreenProps) {
  if (!editor) return null;
  const sessions = await ownSessions(editor.editor.id);
  const current = sessions.find((session) => session.current);
  const text = notice === null ? undefined : NOTICES[notice];
  return (
    <>
      <title>Your sessions · Folio preview</title>
      <h1>Your sessions</h1>
      {text ? (
        <p role="status" className="notice">
          {text}
        </p>
      ) : null}
      <p>
        <a href={PREVIEW_DASHBOARD}>Back to the pages</a>
        {can(editor.editor, 'people.manage') ? (
          <>
            {' '}
            · <a href={PEOPLE_SCREEN}>People</a>
          </>
        ) : null}
      </p>
      <p>
        Everywhere you are signed in as {editor.editor.email}. End a session you do not recognise:
        whoever uses it is signed out at once.
      </p>
      <table className="page-table sessions-table">
        <thead>
          <tr>
            <th scope="col">Signed in</th>
            <th scope="col">Last used</th>
            <th scope="col">From</th>
            <th scope="col">Browser</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.key} aria-current={session.current ? 'true' : undefined}>
              <td>
                <PhoneLabel>Signed in: </PhoneLabel>
                <LocalTime iso={session.createdAt} />
                {session.current ? <strong> (this session)</strong> : null}
              </td>
              <td>
                <PhoneLabel>Last used: </PhoneLabel>
                {session.lastSeenAt ? <LocalTime iso={session.lastSeenAt} /> : 'Not known'}
              </td>
              <td>
                <PhoneLabel>From: </PhoneLabel>
                {session.address ?? 'Not known'}
              </td>
              <td title={session.userAgent ?? undefined}>
                <PhoneLabel>Browser: </PhoneLabel>
                {session.userAgent ? browserOf(session.userAgent) : 'Not known'}
              </td>
              <td>
                <EndMySessionForm session={session.key} current={session.current} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {current && sessions.length > 1 ? (
        <EndMySessionForm session={current.key} current all />
      ) : null}
    </>
  );
}
