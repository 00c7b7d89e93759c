// Owns the fallback error page of the original spec, as static HTML for the server side.

export type ErrorSide = 'server' | 'client';

export function fallbackMessage(side: ErrorSide, host: string): string {
  return side === 'server'
    ? `Application error: a server-side exception has occurred while loading ${host} (see the server logs for more information).`
    : `Application error: a client-side exception has occurred while loading ${host} (see the browser console for more information).`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The server-side fallback page: no scripts, readable with JavaScript off. */
export function renderServerFallbackPage({
  host,
  digest,
}: {
  host: string;
  digest?: string;
}): string {
  const digestLine = digest ? `<p class="digest">Digest: ${escapeHtml(digest)}</p>` : '';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Application error</title><style>body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem}main{max-width:40rem}h1{font-size:1.1rem;font-weight:500;line-height:1.5}.digest{color:#666;font-family:ui-monospace,monospace;font-size:.9rem}</style></head><body><main><h1>${escapeHtml(fallbackMessage('server', host))}</h1>${digestLine}</main></body></html>`;
}
