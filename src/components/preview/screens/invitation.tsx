// Owns /preview?invite=<token> (issue 28): the page an invitation's link opens, signed out.
// It says who the invitation is for and as what, and offers to choose a password (the account
// is made and signed in); an email that already has an account is told to sign in; a link used,
// withdrawn, expired, unknown, or whose inviter may no longer invite is refused in words, with
// its status. Signed in, it says to sign out first rather than act for someone else.
import 'server-only';
import {
  INVITATION_REFUSAL_STATUS,
  invitationForLink,
  isInvitationRefused,
} from '../../../lib/editors/invitations';
import { ROLE_LABELS, ROLE_SUMMARIES } from '../../../lib/editors/permissions';
import { setDocumentStatus } from '../../../lib/http/request-context';
import { INVITATION_PARAM, PREVIEW_DASHBOARD } from '../../../lib/http/routes';
import { AcceptInvitationForm } from '../people-forms';
import type { ScreenProps } from './asked';

export async function InvitationScreen({ asked: { editor, params, notice } }: ScreenProps) {
  const token = (params.get(INVITATION_PARAM) ?? '').slice(0, 100);
  if (editor) {
    return (
      <>
        <title>Invitation · Folio preview</title>
        <h1>An invitation</h1>
        <p>
          You are signed in as {editor.editor.email}. To accept an invitation for someone else, sign
          out first, then open its link again.
        </p>
        <p>
          <a href={PREVIEW_DASHBOARD}>Back to the pages</a>
        </p>
      </>
    );
  }
  if (notice === 'accepted')
    return (
      <>
        <title>Invitation · Folio preview</title>
        <h1>Welcome</h1>
        <p role="status" className="notice">
          Your account is ready. <a href={PREVIEW_DASHBOARD}>Sign in</a> with your email and the
          password you chose.
        </p>
      </>
    );
  let invitation: Awaited<ReturnType<typeof invitationForLink>>;
  try {
    invitation = await invitationForLink(token);
  } catch (error) {
    if (!isInvitationRefused(error)) throw error;
    setDocumentStatus(INVITATION_REFUSAL_STATUS[error.code]);
    return (
      <>
        <title>Invitation · Folio preview</title>
        <h1>This invitation cannot be used</h1>
        <p role="alert" className="form-error">
          {error.message}
        </p>
        <p>
          <a href={PREVIEW_DASHBOARD}>Sign in</a> if you already have an account.
        </p>
      </>
    );
  }
  return (
    <>
      <title>Join · Folio preview</title>
      <h1>Join as {ROLE_LABELS[invitation.role]}</h1>
      <p>
        This invitation is for <strong>{invitation.email}</strong>, as{' '}
        {ROLE_LABELS[invitation.role]}.
      </p>
      <dl className="people-roles">
        <dt>{ROLE_LABELS[invitation.role]}</dt>
        <dd>{ROLE_SUMMARIES[invitation.role]}</dd>
      </dl>
      {invitation.hasAccount ? (
        <p role="status" className="notice">
          {invitation.email} already has an account here: <a href={PREVIEW_DASHBOARD}>sign in</a>{' '}
          with its password.
        </p>
      ) : (
        <AcceptInvitationForm token={token} email={invitation.email} />
      )}
    </>
  );
}
