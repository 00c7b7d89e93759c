import type { ReactNode } from 'react';

// Shared by the public site and the preview; each group's own layout adds its header.
export default async function RootLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {children}
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
