// Owns /preview?people (issue 28): everyone on the site with their role, state, last sign-in
// and open sessions, the invitations still pending, and what an Administrator or the Owner may
// do to each — invite, change a role (the Owner also hands the site over), suspend or restore,
// remove, end sessions. Anyone else gets a 403 in words. Buttons are not offered where the
// action would be refused anyway (oneself, the Owner); the actions refuse them regardless.
import { mailSettings } from '../../../lib/mail/send';
import 'server-only';
import { peopleScreenData } from '../../../lib/editors/people';
import {
  can,
  ROLE_LABELS,
  ROLE_SUMMARIES,
  ROLES,
  refusalOf,
} from '../../../lib/editors/permissions';
import { setDocumentStatus } from '../../../lib/http/request-context';
import { PREVIEW_DASHBOARD, SESSIONS_SCREEN } from '../../../lib/http/routes';
import { LocalTime } from '../local-time';
import {
  EndSessionsForm,
  InviteForm,
  RemoveForm,
  RoleForm,
  SuspendForm,
  WithdrawInvitationForm,
} from '../people-forms';
import { PhoneLabel } from '../phone-label';
import type { ScreenProps } from './asked';

/** Fixed words for fixed keys: a crafted ?notice= shows nothing. */
const NOTICES: Record<string, string> = {
  'role-changed': 'Role changed. It applies from their next request.',
  'handed-over': 'The site is handed over: you are an Administrator now.',
  suspended: 'Suspended: they are signed out everywhere and their share links are revoked.',
  restored: 'Restored: they can sign in again.',
  removed: 'Removed. Their pages and author profile stay.',
  'sessions-ended': 'Their sessions have ended: they sign in again on their next request.',
  'invitation-revoked': 'Invitation withdrawn: its link no longer works.',
  'invitation-gone': 'That invitation had already been used or withdrawn.',
  'person-gone': 'That person no longer has an account here (someone removed them meanwhile).',
};

export async function PeopleScreen({ asked: { editor, notice } }: ScreenProps) {
  if (!editor) return null;
  const me = editor.editor;
  if (!can(me, 'people.manage')) {
    setDocumentStatus(403);
    return (
      <>
        <title>People · Folio preview</title>
        <h1>People</h1>
        <p role="alert" className="form-error">
          {refusalOf(me, 'people.manage')}
        </p>
        <p>
          <a href={PREVIEW_DASHBOARD}>Back to the pages</a> ·{' '}
          <a href={SESSIONS_SCREEN}>Your sessions</a>
        </p>
      </>
    );
  }
  const { people, invitations } = await peopleScreenData();
  // Counted as invited: the invitations that can still be accepted (the others say why not).
  const invited = invitations.filter((invitation) => !invitation.unusable).length;
  const text = notice === null ? undefined : NOTICES[notice];
  const invitable = ROLES.filter((role) => role !== 'owner');
  // The roles this person may give: every one below the Owner; the Owner also hands over.
  const givable = can(me, 'ownership.transfer') ? ROLES : invitable;
  return (
    <>
      <title>People · Folio preview</title>
      <h1>People</h1>
      {text ? (
        <p role="status" className="notice">
          {text}
        </p>
      ) : null}
      <p>
        <a href={PREVIEW_DASHBOARD}>Back to the pages</a> ·{' '}
        <a href={SESSIONS_SCREEN}>Your sessions</a>
      </p>
      <h2>Invite someone</h2>
      <p>
        They get a link to choose a password and join as the role you choose.{' '}
        {mailSettings()
          ? 'Folio emails it to them, and shows it here to copy too'
          : 'Send it to them yourself (no mail server is set up: SMTP_URL)'}
        : it works once and for seven days.
      </p>
      <InviteForm roles={invitable} />
      <details className="people-roles">
        <summary>What each role may do</summary>
        <dl>
          {ROLES.map((role) => (
            <div key={role}>
              <dt>{ROLE_LABELS[role]}</dt>
              <dd>{ROLE_SUMMARIES[role]}</dd>
            </div>
          ))}
        </dl>
      </details>
      <h2 id="people-list">
        Everyone{' '}
        <small>
          ({people.length}
          {invited > 0 ? `, and ${invited} invited` : ''})
        </small>
      </h2>
      <table className="page-table people-table">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">Open sessions</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {people.map((person) => {
            const self = person.id === me.id;
            const owner = person.role === 'owner';
            return (
              <tr key={person.id}>
                <th scope="row">
                  {person.email}
                  {self ? <small> (you)</small> : null}
                </th>
                <td>
                  {self || owner ? (
                    ROLE_LABELS[person.role]
                  ) : (
                    <RoleForm
                      person={person.id}
                      version={person.version}
                      role={person.role}
                      // A suspended person cannot sign in: the site is not handed to them.
                      roles={
                        person.suspended ? givable.filter((each) => each !== 'owner') : givable
                      }
                      email={person.email}
                    />
                  )}
                </td>
                <td>{person.suspended ? 'Suspended' : 'Active'}</td>
                <td>
                  <PhoneLabel>Last sign-in: </PhoneLabel>
                  {person.lastSignIn ? <LocalTime iso={person.lastSignIn} /> : 'Not known'}
                </td>
                <td>
                  <PhoneLabel>Open sessions: </PhoneLabel>
                  {person.openSessions}
                </td>
                <td>
                  <div className="people-actions">
                    {/* The Owner's are the Owner's to end (on their own row: Your sessions). */}
                    {person.openSessions > 0 && !self && !owner ? (
                      <EndSessionsForm
                        person={person.id}
                        version={person.version}
                        count={person.openSessions}
                      />
                    ) : null}
                    {self ? <a href={SESSIONS_SCREEN}>Your sessions</a> : null}
                    {!self && !owner ? (
                      <>
                        <SuspendForm
                          person={person.id}
                          version={person.version}
                          suspended={person.suspended}
                        />
                        <RemoveForm
                          person={person.id}
                          version={person.version}
                          email={person.email}
                        />
                      </>
                    ) : null}
                  </div>
                </td>
              </tr>
            );
          })}
          {invitations.map((invitation) => (
            <tr key={`invitation-${invitation.id}`}>
              <th scope="row">{invitation.email}</th>
              <td>{ROLE_LABELS[invitation.role]}</td>
              <td>
                {invitation.unusable ? (
                  invitation.unusable
                ) : (
                  <>
                    Invited{invitation.invitedBy ? ` by ${invitation.invitedBy}` : ''}, until{' '}
                    <LocalTime iso={invitation.expiresAt} />
                  </>
                )}
              </td>
              <td>
                <PhoneLabel>Last sign-in: </PhoneLabel>
                Not yet
              </td>
              <td>
                <PhoneLabel>Open sessions: </PhoneLabel>0
              </td>
              <td>
                <WithdrawInvitationForm invitation={invitation.id} email={invitation.email} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
