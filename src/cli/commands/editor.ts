// Owns `editor add|list|remove` and `editor sessions revoke`: who may sign in to edit.
// Loaded only when one of them runs.
import 'server-only';
import { addEditor, endSessionsOf, listEditors, removeEditor } from '../../lib/editors/accounts';
import { CliError, one, type Run } from '../command';

/** What a removal or reset did to the editor's share links, said so the operator knows. */
function linksRevoked(count: number): string {
  return `revoked ${count} share link${count === 1 ? '' : 's'} they made`;
}

export const editorAdd: Run = async ({ positionals }, { db, io }) => {
  const editor = await addEditor(db, one(positionals), await io.readPassword());
  io.stdout(
    editor.created
      ? `editor ${editor.email} added\n`
      : `password of ${editor.email} reset; ${editor.sessionsEnded} session(s) ended and ${linksRevoked(editor.linksRevoked)}\n`,
  );
};

export const editorList: Run = async (_args, { db, io }) => {
  const editors = await listEditors(db);
  if (editors.length === 0) io.stdout('no editors yet: add one with `editor add <email>`\n');
  for (const editor of editors)
    io.stdout(
      `${editor.email.padEnd(40)} added ${editor.createdAt}  ${editor.activeSessions} session(s)\n`,
    );
};

export const editorRemove: Run = async ({ positionals }, { db, io }) => {
  const email = one(positionals);
  const removed = await removeEditor(db, email);
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
