import type { ReactNode } from 'react';
import { signOut } from '../../lib/editor/actions/session';
import { signedInEditor } from '../../lib/editor/guard';
import { HOME_SLUG, MEDIA_LIBRARY, PREVIEW_DASHBOARD, previewPath } from '../../lib/http/routes';
// The editors' screens have their own stylesheet, so public pages do not carry it.
import previewStyles from '../../styles/preview.css?inline';

// The preview's frame: every link stays inside preview; nothing here is public. The pages are
// listed on the dashboard, not in the header.
export default async function PreviewLayout({ children }: { children: ReactNode }) {
  const session = await signedInEditor();
  return (
    <>
      <meta name="robots" content="noindex" />
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own stylesheet, inlined at build time */}
      <style dangerouslySetInnerHTML={{ __html: previewStyles }} />
      <header className="site-header preview-header">
        <nav aria-label="Preview" className="container nav">
          <a href={PREVIEW_DASHBOARD} className="brand">
            Folio <span className="badge">preview</span>
          </a>
          {session ? (
            <ul>
              <li>
                <a href={PREVIEW_DASHBOARD}>Pages</a>
              </li>
              <li>
                <a href={previewPath(HOME_SLUG)}>Home page</a>
              </li>
              <li>
                <a href="/preview?settings">Site settings</a>
              </li>
              <li>
                <a href={MEDIA_LIBRARY}>Media</a>
              </li>
            </ul>
          ) : null}
          {session ? (
            <form action={signOut} className="inline-form sign-out">
              <span>{session.editor.email}</span>
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
          ) : null}
        </nav>
      </header>
      <main id="main" className="container preview-main">
        {children}
      </main>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
