'use client';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link, useRouter } from 'waku';
import { navigationStarting, prefetchQueue, routeKindOf } from '../lib/navigation/client-runtime';
import { LINK_VISIBILITY_MARGIN_PX } from '../lib/navigation/constants';

type Props = { to: `/${string}`; children: ReactNode; className?: string };

function saverMode(): boolean {
  return (
    (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true
  );
}

function isCurrent(to: string): boolean {
  return to === window.location.pathname;
}

/** A client-routed link whose page data is prefetched when it comes near the viewport. */
export function FolioLink({ to, children, className }: Props) {
  const ref = useRef<HTMLAnchorElement>(null);
  // The router's current page, on the server render too: the link to it says so.
  const { path } = useRouter();
  const kind = routeKindOf(to);
  useEffect(() => {
    const element = ref.current;
    if (
      !element ||
      kind === 'dynamic' ||
      saverMode() ||
      typeof IntersectionObserver === 'undefined'
    )
      return;
    const queue = prefetchQueue();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          // The page on screen needs no prefetch (Waku's own Link skips it too).
          if (entry.isIntersecting && !isCurrent(to)) queue.enqueue({ path: to, kind });
          else queue.cancel(to);
        }
      },
      { rootMargin: `${LINK_VISIBILITY_MARGIN_PX}px` },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      queue.cancel(to);
    };
  }, [to, kind]);
  const prioritise = () => {
    if (kind === 'static' && !saverMode() && !isCurrent(to))
      prefetchQueue().prioritise({ path: to, kind });
  };
  return (
    <Link
      to={to}
      ref={ref}
      className={className}
      aria-current={path === to ? 'page' : undefined}
      onMouseEnter={prioritise}
      onFocus={prioritise}
      // Runs before Waku's own click handling: a prefetch still in flight gets its deadline.
      onClick={(event) => {
        if (!event.defaultPrevented) navigationStarting(to);
      }}
    >
      {children}
    </Link>
  );
}
