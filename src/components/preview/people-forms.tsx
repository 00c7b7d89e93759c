'use client';
// The People and Sessions screens' forms (issue 28). Each works without JavaScript (the form
// posts to the page and the page re-renders with the answer); each carries what its action
// needs to refuse a stale tab (the person's version as the screen was drawn).
import { useActionState } from 'react';
import {
  acceptInvitationAction,
  changePersonRole,
  endMySessions,
  endSessionsOfPerson,
  invitePerson,
  removePersonAction,
  suspendPerson,
  withdrawInvitation,
} from '../../lib/editor/actions/people';
import type { AcceptInvitationState, InviteState, PeopleFormState } from '../../lib/editor/forms';
import { ROLE_LABELS, ROLES, type Role } from '../../lib/editors/permissions';
import { LocalTime } from './local-time';

type PeopleAction = (previous: PeopleFormState, form: FormData) => Promise<PeopleFormState>;

/** The answer of a row's form, beside it. */
function Refusal({ state }: { state: PeopleFormState | undefined }) {
  return state?.error ? (
    <p role="alert" className="form-error">
      {state.error}
    </p>
  ) : null;
}

/** A one-button form about one person. */
function PersonCommand({
  action,
  person,
  version,
  label,
  intent,
  danger = false,
}: {
  action: PeopleAction;
  person: number;
  version: number;
  label: string;
  intent?: string;
  danger?: boolean;
}) {
  const [answer, formAction, pending] = useActionState<PeopleFormState, FormData>(action, {});
  return (
    <form action={formAction} className="inline-form people-command">
      <input type="hidden" name="person" value={person} />
      <input type="hidden" name="version" value={version} />
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <button type="submit" disabled={pending} className={danger ? 'danger' : undefined}>
        {label}
      </button>
      <Refusal state={answer} />
    </form>
  );
}

/** Whether the link was emailed (decision 0043); in every case, where it is to copy. */
function InvitationSent({ invited }: { invited: NonNullable<InviteState['invited']> }) {
  const expires = <LocalTime iso={invited.expiresAt} />;
  if (invited.emailed?.sent)
    return (
      <>
        Emailed to {invited.email}. The link is below too, shown only now — it works once and
        expires {expires}:
      </>
    );
  if (invited.emailed)
    return (
      <>
        <strong>Could not email it ({invited.emailed.reason}): copy the link below</strong> and send
        it to them — it is shown only now, works once, and expires {expires}:
      </>
    );
  return (
    <>
      Copy this link and send it to them — it is shown only now, works once, and expires {expires}:
    </>
  );
}

export function InviteForm({ roles }: { roles: readonly Role[] }) {
  const [answer, action, pending] = useActionState<InviteState, FormData>(invitePerson, {});
  const state = answer ?? {};
  return (
    <form action={action} className="card invite-form">
      {state.error ? (
        <p role="alert" className="form-error">
          {state.error}
        </p>
      ) : null}
      {state.invited ? (
        <div role="status" className="notice invitation-link">
          <p>
            Invitation for <strong>{state.invited.email}</strong> as{' '}
            {ROLE_LABELS[state.invited.role as Role] ?? state.invited.role}.{' '}
            <InvitationSent invited={state.invited} />
          </p>
          <input
            readOnly
            aria-label="Invitation link"
            value={state.invited.link}
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
      ) : null}
      <label>
        Email
        <input
          name="email"
          type="email"
          required
          maxLength={254}
          defaultValue={state.values?.email ?? ''}
        />
      </label>
      <label>
        Role
        <select name="role" defaultValue={state.values?.role ?? 'contributor'}>
          {roles.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={pending}>
        Invite
      </button>
    </form>
  );
}

export function RoleForm({
  person,
  version,
  role,
  roles,
  email,
}: {
  person: number;
  version: number;
  role: Role;
  /** The roles this screen's user may give (the Owner only offers "Owner"). */
  roles: readonly Role[];
  email: string;
}) {
  const [answer, action, pending] = useActionState<PeopleFormState, FormData>(changePersonRole, {});
  return (
    <form action={action} className="inline-form people-command">
      <input type="hidden" name="person" value={person} />
      <input type="hidden" name="version" value={version} />
      <select name="role" defaultValue={role} aria-label={`Role of ${email}`}>
        {ROLES.filter((each) => each === role || roles.includes(each)).map((each) => (
          <option key={each} value={each}>
            {each === 'owner' && role !== 'owner'
              ? 'Owner (hand the site over)'
              : ROLE_LABELS[each]}
          </option>
        ))}
      </select>
      <button type="submit" disabled={pending}>
        Change role
      </button>
      <Refusal state={answer} />
    </form>
  );
}

export function SuspendForm(props: { person: number; version: number; suspended: boolean }) {
  return (
    <PersonCommand
      action={suspendPerson}
      person={props.person}
      version={props.version}
      intent={props.suspended ? 'restore' : 'suspend'}
      label={props.suspended ? 'Restore' : 'Suspend'}
    />
  );
}

export function EndSessionsForm(props: { person: number; version: number; count: number }) {
  return (
    <PersonCommand
      action={endSessionsOfPerson}
      person={props.person}
      version={props.version}
      label={`End sessions (${props.count})`}
    />
  );
}

/** Removing cannot be taken back: the button sits in a fold that says what it does. */
export function RemoveForm(props: { person: number; version: number; email: string }) {
  return (
    <details className="people-remove">
      <summary>Remove…</summary>
      <p>
        Removes {props.email}'s account, signs them out and revokes their share links. Their pages
        and public author profile stay.
      </p>
      <PersonCommand
        action={removePersonAction}
        person={props.person}
        version={props.version}
        label={`Remove ${props.email}`}
        danger
      />
    </details>
  );
}

export function WithdrawInvitationForm({
  invitation,
  email,
}: {
  invitation: number;
  email: string;
}) {
  const [answer, action, pending] = useActionState<PeopleFormState, FormData>(
    withdrawInvitation,
    {},
  );
  return (
    <form action={action} className="inline-form people-command">
      <input type="hidden" name="invitation" value={invitation} />
      <button type="submit" disabled={pending} aria-label={`Withdraw the invitation for ${email}`}>
        Withdraw
      </button>
      <Refusal state={answer} />
    </form>
  );
}

export function EndMySessionForm({
  session,
  current,
  all = false,
}: {
  session: string;
  current: boolean;
  all?: boolean;
}) {
  const [answer, action, pending] = useActionState<PeopleFormState, FormData>(endMySessions, {});
  let label = 'End this session';
  if (all) label = 'End every other session';
  else if (current) label = 'End this session (signs you out here)';
  return (
    <form action={action} className="inline-form people-command">
      <input type="hidden" name="session" value={session} />
      {all ? <input type="hidden" name="all" value="1" /> : null}
      <button type="submit" disabled={pending} className={current && !all ? 'danger' : undefined}>
        {label}
      </button>
      <Refusal state={answer} />
    </form>
  );
}

export function AcceptInvitationForm({ token, email }: { token: string; email: string }) {
  const [answer, action, pending] = useActionState<AcceptInvitationState, FormData>(
    acceptInvitationAction,
    {},
  );
  const state = answer ?? {};
  return (
    <form action={action} className="card sign-in">
      {state.error ? (
        <p role="alert" className="form-error">
          {state.error}
        </p>
      ) : null}
      <input type="hidden" name="token" value={token} />
      {/* For password managers: the account this password belongs to. */}
      <input type="hidden" name="email" value={email} autoComplete="username" />
      <label>
        Choose a password
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          maxLength={1024}
        />
        <span className="hint">At least 10 characters.</span>
      </label>
      <button type="submit" disabled={pending}>
        {pending ? 'Joining…' : 'Join and sign in'}
      </button>
    </form>
  );
}
