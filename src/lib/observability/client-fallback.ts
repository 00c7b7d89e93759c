// Owns the client-side fallback page when React has nothing left to render.

import { serverDigestOf } from './client-errors';
import { fallbackMessage } from './fallback-page';

export function showClientFallbackPage(error: unknown): void {
  if (typeof document === 'undefined') return;
  const digest = serverDigestOf(error);
  const main = document.createElement('main');
  main.className = 'app-error';
  const heading = document.createElement('h1');
  heading.textContent = fallbackMessage(digest ? 'server' : 'client', window.location.hostname);
  main.append(heading);
  if (digest) {
    const line = document.createElement('p');
    line.className = 'digest';
    line.textContent = `Digest: ${digest}`;
    main.append(line);
  }
  document.body.replaceChildren(main);
  document.title = 'Application error';
}
