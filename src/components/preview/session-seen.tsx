// Notes, once every few minutes, where and when the signed-in person's session was last used,
// for the Sessions screens (issue 28). Rendered by the editors' bar, which every signed-in
// preview screen shows: the one place each of their requests passes that is not sign-in's
// (editors/session.ts, another part's). Renders nothing, and never fails the page.
import 'server-only';
import { noteSessionSeen } from '../../lib/editors/people';

export async function SessionSeen() {
  await noteSessionSeen();
  return null;
}
