import type { ReactNode } from 'react';
import { EscapeClosesMenus } from '../../components/preview/escape-closes-menus';
// The editors' screens have their own stylesheet, so public pages do not carry it.
import previewStyles from '../../styles/preview.css?inline';

// The preview's frame: every link stays inside preview; nothing here is public. Each screen
// chooses what surrounds it (screens.ts): a page's preview is the site's own frame under the
// preview bar, every other screen the editors' chrome (components/preview/editor-chrome.tsx).
export default async function PreviewLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <meta name="robots" content="noindex" />
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own stylesheet, inlined at build time */}
      <style dangerouslySetInnerHTML={{ __html: previewStyles }} />
      <EscapeClosesMenus />
      {children}
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
