// Owns the reminder every editors' screen shows to someone the site's rule asks for a second
// factor they do not have (issue 28). The guard refuses their actions; without this, a person
// already signed in when an Administrator turned the rule on (walk-through) met the rule only
// as a refused save, after typing.
import 'server-only';
import { getDatabase } from '../../lib/data/db';
import type { EditorSession } from '../../lib/editor/guard';
import { secondFactorMissing } from '../../lib/editors/second-factor';
import { SECURITY_SCREEN } from '../../lib/http/routes';

export async function SecondFactorReminder({ editor }: { editor: EditorSession | null }) {
  if (!editor) return null;
  const db = await getDatabase();
  if (!(await secondFactorMissing(db.query, editor.editor))) return null;
  return (
    <p role="alert" className="notice second-factor-reminder">
      This site asks people in your role for a second factor: until you set up a passkey or an
      authenticator app, you can read but not change anything.{' '}
      <a href={SECURITY_SCREEN}>Set one up now</a>
    </p>
  );
}
