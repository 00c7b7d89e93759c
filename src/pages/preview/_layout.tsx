import type { ReactNode } from 'react';
import { signOut } from '../../components/preview/actions';
import { contentStore } from '../../lib/content';
import { currentEditorSession } from '../../lib/editor-session';
import { previewPath } from '../../lib/preview-paths';

// The preview's frame: every link stays inside preview; nothing here is public.
export default async function PreviewLayout({ children }: { children: ReactNode }) {
  const session = currentEditorSession();
  const pages = session ? contentStore().listAll() : [];
  return (
    <>
      <meta name="robots" content="noindex" />
      <header className="site-header preview-header">
        <nav aria-label="Preview" className="container nav">
          <a href="/preview" className="brand">
            Folio <span className="badge">preview</span>
          </a>
          <ul>
            {pages
              .filter((page) => page.slug !== 'home')
              .map((page) => (
                <li key={page.slug}>
                  <a href={previewPath(page.slug)}>{page.title}</a>
                </li>
              ))}
          </ul>
          {session ? (
            <form action={signOut} className="inline-form sign-out">
              <span>{session.editor.email}</span>
              <button type="submit">Sign out</button>
              <button type="submit" name="everywhere" value="1">
                Sign out everywhere
              </button>
            </form>
          ) : null}
        </nav>
      </header>
      <main id="main" className="container">
        {children}
      </main>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
