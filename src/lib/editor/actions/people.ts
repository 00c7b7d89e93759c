'use server';
import { unstable_redirect as redirect } from 'waku/router/server';
// Owns the People and Sessions screens' actions (issue 28, decision 0039): invite, revoke an
// invitation, change a role, suspend or restore, remove, end someone's sessions (each asks the
// guard for people.manage — handing the site over, ownership.transfer too), end one's own
// sessions (nothing to ask: they are one's own), and accepting an invitation, which needs no
// editor (like signing in). The rules are editors/people.ts's and invitations.ts's; this turns
// their refusals into the form's words and status, and a success into the screen's notice.
import { recordAuditAlone, recordRefusedPeopleAction } from '../../audit/audit';
import { getDatabase } from '../../data/db';
import { emailInvitation } from '../../editors/invitation-email';
import {
  acceptInvitation,
  createInvitation,
  INVITATION_REFUSAL_STATUS,
  isInvitationRefused,
  revokeInvitation,
} from '../../editors/invitations';
import {
  currentSessionKey,
  endOwnSessions,
  endPersonSessions,
  peopleRefusal,
  removePerson,
  setRole,
  setSuspended,
} from '../../editors/people';
import { isRole } from '../../editors/permissions';
import { currentEditorSession, endEditorSession, signInEditor } from '../../editors/session';
import { INVITATION_PARAM, PEOPLE_SCREEN, SESSIONS_SCREEN } from '../../http/routes';
import { siteOrigin } from '../../http/site-url';
import { badRequest } from '../../observability/request-errors';
import { editorForm, readForm, refuseForm } from '../action';
import {
  type AcceptInvitationState,
  acceptInvitationSchema,
  endSessionsSchema,
  type InviteState,
  invitationRevokeSchema,
  invitePersonSchema,
  type PeopleFormState,
  personChangeSchema,
} from '../forms';
import type { Asked } from '../guard';

const PEOPLE: readonly Asked[] = [{ action: 'people.manage' }];

/** The screen again, with a notice in fixed words (people.tsx). */
function landOnPeople(notice: string): never {
  redirect(`${PEOPLE_SCREEN}&notice=${notice}`, 303);
  throw new Error('unreachable: redirect throws');
}

/**
 * A refusal by people.ts as the form's answer (409, in words). A person removed meanwhile has
 * no row left to carry the answer: the screen says so instead, as a notice.
 */
async function refusedChange(
  error: unknown,
  asked: string,
  person: number,
): Promise<PeopleFormState> {
  const refusal = peopleRefusal(error);
  if (!refusal) throw error;
  // Refused by the people rules (oneself, the Owner, a stale screen, someone gone): in the trail,
  // as the permission table's refusals are (issue 28: "each … is in the audit trail").
  await recordRefusedPeopleAction(await getDatabase(), undefined, asked, {
    person: String(person),
    reason: refusal.code,
  });
  if (refusal.code === 'gone') landOnPeople('person-gone');
  refuseForm(409);
  return { error: refusal.message };
}

/**
 * Invites someone: the link comes back in the form's answer, to copy (it is shown once), and is
 * emailed to them when a mail server is configured — the answer says whether it went.
 */
export const invitePerson = editorForm({
  read: (input) => readForm(invitePersonSchema, input),
  may: () => PEOPLE,
  refused: (values, { message }): InviteState => ({ values, error: message }),
  run: async (values, { editor }): Promise<InviteState> => {
    try {
      const db = await getDatabase();
      const { token, invitation } = await createInvitation(db, editor, values.email, values.role);
      const link = new URL(`/preview?${INVITATION_PARAM}=${token}`, siteOrigin()).href;
      // After the commit (decision 0043): a mail server that fails or hangs cannot undo the
      // invitation, and the link is shown whatever it answered.
      const emailed = await emailInvitation(db.query, {
        to: invitation.email,
        inviter: editor.email,
        siteAddress: siteOrigin(),
        role: invitation.role,
        link,
        expiresAt: invitation.expiresAt,
      });
      // In the trail when the mail server took it (a failure is the log's: an outage, not a deed).
      if (emailed?.sent)
        await recordAuditAlone(db, {
          action: 'editor.invitation_emailed',
          actor: { id: editor.id, email: editor.email },
          detail: { person: invitation.email, role: invitation.role },
        });
      return {
        invited: {
          email: invitation.email,
          role: invitation.role,
          link,
          expiresAt: invitation.expiresAt,
          ...(emailed ? { emailed } : {}),
        },
      };
    } catch (error) {
      if (!isInvitationRefused(error)) throw error;
      refuseForm(INVITATION_REFUSAL_STATUS[error.code]);
      return { values, error: error.message };
    }
  },
});

/** Withdraws a pending invitation; one used or withdrawn meanwhile says so. */
export const withdrawInvitation = editorForm({
  read: (input) => readForm(invitationRevokeSchema, input),
  may: () => PEOPLE,
  refused: (_input, { message }): PeopleFormState => ({ error: message }),
  run: async ({ invitation }): Promise<PeopleFormState> => {
    const revoked = await revokeInvitation(await getDatabase(), invitation ?? 0);
    landOnPeople(revoked ? 'invitation-revoked' : 'invitation-gone');
  },
});

/** Reads a role the form can only offer from the table; anything else is forged (400). */
function chosenRole(role: string) {
  if (!isRole(role)) throw badRequest('Choose a role from the list.');
  return role;
}

/** Changes a person's role; to Owner, hands the site over (the Owner only). */
export const changePersonRole = editorForm({
  read: (input) => {
    const form = readForm(personChangeSchema, input);
    if (form.version === undefined) throw badRequest('This form was not made by Folio.');
    return { person: form.person ?? 0, version: form.version, role: chosenRole(form.role) };
  },
  may: ({ role }): readonly Asked[] =>
    role === 'owner' ? [...PEOPLE, { action: 'ownership.transfer' }] : PEOPLE,
  refused: (_input, { message }): PeopleFormState => ({ error: message }),
  run: async ({ person, version, role }, { editor }): Promise<PeopleFormState> => {
    try {
      await setRole(await getDatabase(), editor, { personId: person, role, version });
    } catch (error) {
      return refusedChange(error, 'people.role', person);
    }
    landOnPeople(role === 'owner' ? 'handed-over' : 'role-changed');
  },
});

/** Suspends a person (sessions ended, share links revoked) or restores them. */
export const suspendPerson = editorForm({
  read: (input) => {
    const form = readForm(personChangeSchema, input);
    if (form.version === undefined || (form.intent !== 'suspend' && form.intent !== 'restore'))
      throw badRequest('This form was not made by Folio.');
    return { person: form.person ?? 0, version: form.version, suspend: form.intent === 'suspend' };
  },
  may: () => PEOPLE,
  refused: (_input, { message }): PeopleFormState => ({ error: message }),
  run: async ({ person, version, suspend }, { editor }): Promise<PeopleFormState> => {
    try {
      await setSuspended(await getDatabase(), editor, { personId: person, version, suspend });
    } catch (error) {
      return refusedChange(error, 'people.suspend', person);
    }
    landOnPeople(suspend ? 'suspended' : 'restored');
  },
});

/** Removes a person; their pages and author profile stay. */
export const removePersonAction = editorForm({
  read: (input) => {
    const form = readForm(personChangeSchema, input);
    if (form.version === undefined) throw badRequest('This form was not made by Folio.');
    return { person: form.person ?? 0, version: form.version };
  },
  may: () => PEOPLE,
  refused: (_input, { message }): PeopleFormState => ({ error: message }),
  run: async ({ person, version }, { editor }): Promise<PeopleFormState> => {
    try {
      // The version the screen showed: a person changed meanwhile is not removed unseen (409).
      await removePerson(await getDatabase(), editor, person, version);
    } catch (error) {
      return refusedChange(error, 'people.remove', person);
    }
    landOnPeople('removed');
  },
});

/** Ends every session of a person (they are signed out on their next request). */
export const endSessionsOfPerson = editorForm({
  read: (input) => readForm(personChangeSchema, input),
  may: () => PEOPLE,
  refused: (_input, { message }): PeopleFormState => ({ error: message }),
  run: async ({ person }, { editor }): Promise<PeopleFormState> => {
    try {
      await endPersonSessions(await getDatabase(), editor, person ?? 0);
    } catch (error) {
      return refusedChange(error, 'people.end-sessions', person);
    }
    landOnPeople('sessions-ended');
  },
});

/**
 * Ends sessions of one's own: the one named, or every other. Ending the one in use signs out
 * here as "Sign out" does (its button says so); the sign-in screen follows.
 */
export const endMySessions = editorForm({
  read: (input) => readForm(endSessionsSchema, input),
  // One's own sessions: everyone signed in may end them; the query is bounded to them.
  may: () => [],
  refused: (_input, { message }): PeopleFormState => ({ error: message }),
  run: async ({ session, all }, { editor }): Promise<PeopleFormState> => {
    const allBut = all === '1';
    const current = currentSessionKey();
    if (!allBut && session === current) {
      await endEditorSession();
      redirect(new URL('/preview', siteOrigin()), 303);
    }
    const ended = await endOwnSessions(await getDatabase(), editor.id, { key: session, allBut });
    redirect(
      `${SESSIONS_SCREEN}&notice=${allBut ? 'others-ended' : ended > 0 ? 'session-ended' : 'session-gone'}`,
      303,
    );
  },
});

/**
 * Accepts an invitation (signed out, like signing in: no guard): makes the account with the
 * chosen password and signs in, then the dashboard. A refusal says why, in words.
 */
export async function acceptInvitationAction(
  _previous: AcceptInvitationState,
  input: FormData,
): Promise<AcceptInvitationState> {
  const { token, password } = readForm(acceptInvitationSchema, input);
  // Signed in as someone else: accepting would replace that session without a word (and act
  // for whoever holds this browser). They sign out first; nothing is made or used meanwhile.
  const signedIn = await currentEditorSession();
  if (signedIn) {
    refuseForm(409);
    return {
      // The invitation screen says the same to someone signed in (screens/invitation.tsx).
      error: `You are signed in as ${signedIn.editor.email}. To accept an invitation for someone else, sign out first, then open its link again.`,
    };
  }
  let email: string;
  try {
    ({ email } = await acceptInvitation(await getDatabase(), token, password));
  } catch (error) {
    if (!isInvitationRefused(error)) throw error;
    refuseForm(INVITATION_REFUSAL_STATUS[error.code]);
    return { error: error.message };
  }
  // The account is made: signing in is the ordinary sign-in (its throttle, its cookie).
  const outcome = await signInEditor(email, password);
  // Not signed in (throttled, the database busy): the account stands; the page says to sign in.
  redirect(
    new URL(
      outcome.ok ? '/preview' : `/preview?${INVITATION_PARAM}=${token}&notice=accepted`,
      siteOrigin(),
    ),
    303,
  );
}
