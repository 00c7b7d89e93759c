import type { ReactNode } from 'react';
import { SiteFrame, siteFrameData } from '../../components/site-frame';

// The public site's frame (site-frame.tsx, shared with the preview): the site's name, the
// navigation the editors chose (published pages only), and the footer. Site settings change
// the content version, like a publish, so cached pages show a change on the next request.
export default async function SiteLayout({ children }: { children: ReactNode }) {
  const frame = await siteFrameData({ draft: false });
  return (
    <>
      {/* React hoists it into <head>: feed readers find the feed from any page. */}
      <link
        rel="alternate"
        type="application/atom+xml"
        title={frame.settings.title}
        href="/feed.xml"
      />
      <SiteFrame {...frame}>{children}</SiteFrame>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
