'use client';
// Owns the site's frame around the editor's live pane: the header (draft navigation, site
// settings) and footer the server rendered for this editor screen, so the pane shows the page
// as visitors will see it, inside the site. Given by the screen through context, so the
// editor's own props (page-editor.tsx) stay the editor's.
import { createContext, type ReactNode, useContext } from 'react';
import type { ArticleDates } from '../../article';

type Frame = {
  header: ReactNode;
  footer: ReactNode;
  /** The page's date line as it will read when published (none on the home page). */
  dates?: ArticleDates | undefined;
};
const LivePaneFrameContext = createContext<Frame | null>(null);

export function LivePaneFrameProvider({
  header,
  footer,
  dates,
  children,
}: Frame & { children: ReactNode }) {
  return (
    <LivePaneFrameContext.Provider value={{ header, footer, dates }}>
      {children}
    </LivePaneFrameContext.Provider>
  );
}

/** The page (given its date line) inside the site's header and footer; without a provider,
 * the page alone. */
export function LivePaneFrame({
  children,
}: {
  children: (dates: ArticleDates | undefined) => ReactNode;
}) {
  const frame = useContext(LivePaneFrameContext);
  if (!frame) return children(undefined);
  return (
    <div className="live-pane-site">
      {frame.header}
      <div className="container live-pane-column">{children(frame.dates)}</div>
      {frame.footer}
    </div>
  );
}
