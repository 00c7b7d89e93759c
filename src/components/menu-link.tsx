'use client';
import type { ReactNode } from 'react';
import { Link, useRouter } from 'waku';

// A menu's link to a page of the site that is not the header row's (FolioLink's): the header's
// "More" and phone menus and the footer's menu. It marks the current page (aria-current) as
// the router sees it, so a client navigation moves the mark. It never joins the prefetch
// queue: the queue cancels a page's prefetch when any of its links leaves the viewport, and
// these are usually out of view (a closed menu, the foot of the page) while the header row's
// link to the same page is in view. `plain`: a full page load (a menu a load closes).
export function MenuLink({
  to,
  plain = false,
  children,
}: {
  to: `/${string}`;
  plain?: boolean;
  children: ReactNode;
}) {
  const { path } = useRouter();
  const current = path === to ? 'page' : undefined;
  return plain ? (
    <a href={to} aria-current={current}>
      {children}
    </a>
  ) : (
    <Link to={to} aria-current={current}>
      {children}
    </Link>
  );
}
