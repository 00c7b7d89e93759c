import type { ReactNode } from 'react';

// The document shell (Waku's HTML shell already sets charset and viewport). Per-page <title> and <meta> tags are rendered by each page and hoisted
// into <head> by React 19.
export default function Root({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </head>
      <body>{children}</body>
    </html>
  );
}

// Dynamic: content changes without a rebuild, so nothing may be baked in at build time.
export const getConfig = async () => ({ render: 'dynamic' }) as const;
