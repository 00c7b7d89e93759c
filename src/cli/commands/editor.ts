// Owns `editor add|list|remove|role` and `editor sessions revoke`: who may sign in to edit, and
// what each may do (their role: editors/permissions.ts). Loaded only when one of them runs.
import 'server-only';
import {
  addEditor,
  changeRole,
  endSessionsOf,
  listEditors,
  RoleRefused,
  removeEditor,
} from '../../lib/editors/accounts';
import { isRole, ROLE_LABELS, ROLES, type Role } from '../../lib/editors/permissions';
import { CliError, one, type Run } from '../command';

/** A role as typed (any case), or a CliError naming the roles there are. */
function roleArgument(text: string): Role {
  const role = text.trim().toLowerCase();
  if (isRole(role)) return role;
  throw new CliError(`there is no role “${text}”: use one of ${ROLES.join(', ')}`);
}

/** A refusal of the roles' rules (the last Owner…) as the CLI's error; anything else thrown. */
async function roleRules<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RoleRefused) throw new CliError(error.message);
    throw error;
  }
}

/** What a removal or reset did to the editor's share links, said so the operator knows. */
function linksRevoked(count: number): string {
  return `revoked ${count} share link${count === 1 ? '' : 's'} they made`;
}

/** What a reset did to the editor's passkeys and authenticator app, said so the operator knows. */
function secondFactorsRemoved(count: number): string {
  return `${count} second factor${count === 1 ? '' : 's'} (passkeys, authenticator app) removed`;
}

export const editorAdd: Run = async ({ positionals, values }, { db, io }) => {
  const asked = typeof values.role === 'string' ? roleArgument(values.role) : undefined;
  // The Owner is whoever set the site up, or whom they hand it to (`editor role … owner`).
  if (asked === 'owner')
    throw new CliError(
      'add them with another role, then hand the site over with `editor role <email> owner`',
    );
  const editor = await addEditor(db, one(positionals), await io.readPassword(), { role: asked });
  const role = ROLE_LABELS[editor.role];
  io.stdout(
    editor.created
      ? `editor ${editor.email} added as ${role}\n`
      : `password of ${editor.email} reset (${role}); ${editor.sessionsEnded} session(s) ended, ${secondFactorsRemoved(editor.factorsRemoved)} and ${linksRevoked(editor.linksRevoked)}\n`,
  );
};

export const editorRole: Run = async ({ positionals }, { db, io }) => {
  const [email = '', text = ''] = positionals;
  const role = roleArgument(text);
  const changed = await roleRules(() => changeRole(db, email, role));
  if (!changed) throw new CliError(`there is no editor ${email}`);
  if (changed.was === role) {
    io.stdout(`${changed.email} is ${ROLE_LABELS[role]} already; nothing changed\n`);
    return;
  }
  io.stdout(
    `${changed.email} is ${ROLE_LABELS[role]} now (was ${ROLE_LABELS[changed.was]})${changed.previousOwner ? `; ${changed.previousOwner} is an Administrator now` : ''}\n`,
  );
};

export const editorList: Run = async (_args, { db, io }) => {
  const editors = await listEditors(db);
  if (editors.length === 0) io.stdout('no editors yet: add one with `editor add <email>`\n');
  for (const editor of editors)
    io.stdout(
      `${editor.email.padEnd(40)} ${ROLE_LABELS[editor.role].padEnd(13)} added ${editor.createdAt}  ${editor.activeSessions} session(s)${editor.suspended ? '  suspended' : ''}\n`,
    );
};

export const editorRemove: Run = async ({ positionals }, { db, io }) => {
  const email = one(positionals);
  const removed = await roleRules(() => removeEditor(db, email));
  if (!removed) throw new CliError(`there is no editor ${email}`);
  io.stdout(`editor ${email} removed and ${linksRevoked(removed.linksRevoked)}\n`);
};

export const editorSessionsRevoke: Run = async ({ positionals, values }, { db, io }) => {
  const email = one(positionals);
  const keepLinks = values['keep-links'] === true;
  const ended = await endSessionsOf(db, email, { revokeLinks: !keepLinks });
  if (ended === null) throw new CliError(`there is no editor ${email}`);
  io.stdout(
    `${ended.sessionsEnded} session(s) of ${email} ended; ${keepLinks ? 'their share links still work' : linksRevoked(ended.linksRevoked)}\n`,
  );
};
