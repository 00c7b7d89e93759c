// Owns the editors' own frame: the preview bar (Pages, Home page, Site settings, Media, sign
// out) and, on screens that are not a page (dashboard, settings, media, sign-in, the editor,
// history), the wide column under it. A page's preview is framed by the site itself
// (site-frame.tsx) with this bar and its banner above, outside the page's markup.
import 'server-only';
import type { ReactNode } from 'react';
import { signOut } from '../../lib/editor/actions/session';
import type { EditorSession } from '../../lib/editor/guard';
import { can } from '../../lib/editors/permissions';
import {
  API_KEYS_SCREEN,
  AUDIT_SCREEN,
  AUTHOR_PROFILE,
  EDITOR_HELP,
  HOME_SLUG,
  MEDIA_LIBRARY,
  NAVIGATION_SCREEN,
  PEOPLE_SCREEN,
  PREVIEW_DASHBOARD,
  previewPath,
  REDIRECTS_SCREEN,
  SECURITY_SCREEN,
  SESSIONS_SCREEN,
  TOPICS_SCREEN,
  WEBHOOKS_SCREEN,
} from '../../lib/http/routes';
import { ForgetLocalCopies } from './forget-local-copies';
import { TimeZoneName } from './local-time';
import { SessionSeen } from './session-seen';

export function PreviewHeader({ editor }: { editor: EditorSession | null }) {
  return (
    <header className="preview-header">
      <nav aria-label="Preview" className="container nav">
        <a href={PREVIEW_DASHBOARD} className="brand">
          Folio <span className="badge">preview</span>
        </a>
        {editor ? (
          // On a phone the links, the time zone and signing out fold into a menu, so the
          // bar is one line and the page's title starts in the first screen (issue 26).
          // <details> opens without JavaScript; on wider screens preview.css shows its
          // contents in the bar's row and hides the summary.
          <details className="bar-menu">
            <summary>Menu</summary>
            <div className="bar-menu-panel">
              <ul>
                <li>
                  <a href={PREVIEW_DASHBOARD}>Pages</a>
                </li>
                <li>
                  <a href={previewPath(HOME_SLUG)}>Home page</a>
                </li>
                {/* Only the screens the person's role opens (issue 28). */}
                {can(editor.editor, 'settings.edit') ? (
                  <>
                    <li>
                      <a href="/preview?settings">Site settings</a>
                    </li>
                    <li>
                      <a href={NAVIGATION_SCREEN}>Menus</a>
                    </li>
                  </>
                ) : null}
                <li>
                  <a href={MEDIA_LIBRARY}>Media</a>
                </li>
                {can(editor.editor, 'topic.edit') ? (
                  <li>
                    <a href={TOPICS_SCREEN}>Topics</a>
                  </li>
                ) : null}
                {can(editor.editor, 'redirect.edit') ? (
                  <li>
                    <a href={REDIRECTS_SCREEN}>Redirects</a>
                  </li>
                ) : null}
                {can(editor.editor, 'people.manage') ? (
                  <li>
                    <a href={PEOPLE_SCREEN}>People</a>
                  </li>
                ) : null}
                <li>
                  <a href={SESSIONS_SCREEN}>Sessions</a>
                </li>
                <li>
                  <a href={SECURITY_SCREEN}>Sign-in security</a>
                </li>
                {can(editor.editor, 'audit.read') ? (
                  <li>
                    <a href={AUDIT_SCREEN}>Audit trail</a>
                  </li>
                ) : null}
                {/* Webhooks and API keys, one entry: the bar is a row on wide screens. */}
                {can(editor.editor, 'webhooks.manage') ? (
                  <li>
                    <a href={WEBHOOKS_SCREEN}>Integrations</a>
                  </li>
                ) : can(editor.editor, 'api-keys.manage') ? (
                  <li>
                    <a href={API_KEYS_SCREEN}>Integrations</a>
                  </li>
                ) : null}
                <li>
                  <a href={EDITOR_HELP}>Help</a>
                </li>
              </ul>
              <p className="time-zone">
                Times in <TimeZoneName />
              </p>
              <form action={signOut} className="inline-form sign-out">
                <a href={AUTHOR_PROFILE} title="Your public profile">
                  {editor.editor.email}
                </a>
                {/* The copies of documents this browser keeps for offline typing go too. */}
                <ForgetLocalCopies />
                <button type="submit">Sign out</button>
                <button type="submit" name="everywhere" value="1">
                  Sign out everywhere
                </button>
                {/* Ticked by default: signing out everywhere is what an editor does after losing a
                    device or a password, and the links made from it show drafts just as well.
                    Only "Sign out everywhere" reads it; unticked, reviewers keep their links. */}
                <label className="inline-choice">
                  <input type="checkbox" name="revokeLinks" value="1" defaultChecked />
                  Also revoke the share links I made
                </label>
              </form>
            </div>
          </details>
        ) : null}
        {editor ? <SessionSeen /> : null}
      </nav>
    </header>
  );
}

/** An editor's screen that is not a page: the bar, then the screen in the wide column. */
export function EditorChrome({
  editor,
  children,
}: {
  editor: EditorSession | null;
  children?: ReactNode;
}) {
  return (
    <>
      <PreviewHeader editor={editor} />
      <main id="main" className="container preview-main">
        {children}
      </main>
    </>
  );
}

/**
 * Above a page's preview: the bar and the page's banner, in a region of their own — before
 * the site's header, so the page's own markup (header, main, footer) is the public page's,
 * byte for byte, and the site's header stays the document's one banner landmark.
 */
export function PreviewBar({
  editor,
  children,
}: {
  editor: EditorSession | null;
  children: ReactNode;
}) {
  return (
    <section className="preview-bar" aria-label="Editing tools">
      {editor ? <PreviewHeader editor={editor} /> : null}
      <div className="container preview-bar-banner">{children}</div>
    </section>
  );
}
