// Owns the pages Folio writes without React (the fallback error page of the original spec, a
// refusal, a refused address): static HTML, readable with JavaScript off, one look for all.

export type ErrorSide = 'server' | 'client';

export function fallbackMessage(side: ErrorSide, host: string): string {
  return side === 'server'
    ? `Application error: a server-side exception has occurred while loading ${host} (see the server logs for more information).`
    : `Application error: a client-side exception has occurred while loading ${host} (see the browser console for more information).`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const STYLE =
  'textarea{width:100%;font:inherit;font-family:ui-monospace,monospace;font-size:.9rem}label{display:block;margin:.75rem 0;font-weight:600}body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem;color:#1d1d1f;background:#fdfcfa}main{max-width:40rem}h1{font-size:1.25rem;font-weight:600;line-height:1.5}p{line-height:1.5}a{color:#1f5fbf}.digest{color:#666;font-family:ui-monospace,monospace;font-size:.9rem}@media (prefers-color-scheme:dark){body{color:#ececf0;background:#141416}a{color:#8ab4ff}.digest{color:#a4a4ae}}';

/** A small static page: a heading and some (already escaped) HTML below it. */
export function staticPage({
  title,
  heading,
  body = '',
}: {
  title: string;
  heading: string;
  body?: string;
}): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(heading)}</h1>${body}</main></body></html>`;
}

/** Text an editor typed into a form whose post failed, to hand back on the error page. */
export type KeptText = readonly { name: string; value: string }[];

/**
 * What an editor typed, on a page that says the post failed: read-only fields to copy from,
 * since the form they came from is gone (a post without JavaScript replaced the page).
 */
export function keptTextHtml(kept: KeptText | undefined): string {
  if (!kept || kept.length === 0) return '';
  const fields = kept
    .map(
      ({ name, value }) =>
        `<label>${escapeHtml(name[0]?.toUpperCase() + name.slice(1))}<textarea readonly rows="${Math.min(18, value.split('\n').length + 1)}">${escapeHtml(value)}</textarea></label>`,
    )
    .join('');
  return `<p><strong>Nothing was saved.</strong> What you typed is below: copy it, go back, and try again.</p>${fields}`;
}

/** The server-side fallback page: no scripts, readable with JavaScript off. */
export function renderServerFallbackPage({
  host,
  digest,
  kept,
}: {
  host: string;
  digest?: string;
  kept?: KeptText;
}): string {
  return staticPage({
    title: 'Application error',
    heading: fallbackMessage('server', host),
    body: `${digest ? `<p class="digest">Digest: ${escapeHtml(digest)}</p>` : ''}${keptTextHtml(kept)}`,
  });
}
