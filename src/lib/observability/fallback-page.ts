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

// The site's palette and type, light and dark, without its stylesheet (a failing render may
// not get that far): a header with the site's address and a way home, the words, a footer.
const STYLE =
  ':root{color-scheme:light dark;--bg:#fdfcfa;--fg:#1d1d1f;--muted:#5c5c66;--accent:#1f5fbf;--rule:#e4e2dd;--card:#fff}@media (prefers-color-scheme:dark){:root{--bg:#141416;--fg:#ececf0;--muted:#a4a4ae;--accent:#8ab4ff;--rule:#2e2e34;--card:#1b1b1f}}*{box-sizing:border-box}body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;min-height:100vh;display:flex;flex-direction:column;color:var(--fg);background:var(--bg);line-height:1.6}header,footer{padding:1rem 1.25rem}header{border-bottom:1px solid var(--rule)}header a{color:var(--fg);font-weight:700;text-decoration:none}footer{color:var(--muted);font-size:.9rem;border-top:1px solid var(--rule)}main{flex:1;width:100%;max-width:40rem;margin:0 auto;padding:12vh 1.25rem 3rem}h1{font-size:1.25rem;font-weight:600;line-height:1.5;margin:0 0 1rem}a{color:var(--accent)}.digest{color:var(--muted);font-family:ui-monospace,monospace;font-size:.9rem}textarea{width:100%;font:inherit;font-family:ui-monospace,monospace;font-size:.9rem;background:var(--card);color:var(--fg);border:1px solid var(--rule);border-radius:6px;padding:.5rem}label{display:block;margin:.75rem 0;font-weight:600}main:has(.dev-error){max-width:64rem}.dev-error h2{font-size:1rem;margin:1.5rem 0 .5rem}.dev-error pre{overflow:auto;font-size:.8rem;line-height:1.45;background:var(--card);border:1px solid var(--rule);border-radius:6px;padding:.75rem;white-space:pre}';

/**
 * What a static page knows of the site (Site settings), when it can be had: the 404s the front
 * door writes without React carry the site's title, language and favicon like its pages do
 * (issue 27). Without it, Folio's defaults.
 */
export type SiteLook = {
  title: string;
  /** A BCP 47 tag, already checked by Site settings. */
  language: string;
  direction: 'ltr' | 'rtl';
  /** A media hash (`/media/<hash>`), or null for Folio's own icon. */
  favicon: string | null;
};

/** A small static page: a heading and some (already escaped) HTML below it. */
export function staticPage({
  title,
  heading,
  body = '',
  site,
  look,
}: {
  title: string;
  heading: string;
  body?: string;
  /** The site's address, named in the header (a link home) and the footer. */
  site?: string;
  /** The site's title, language and icon: the title ends with it, the header names it. */
  look?: SiteLook;
}): string {
  const name = look?.title ?? site;
  const header = name ? `<header><a href="/">${escapeHtml(name)}</a></header>` : '';
  const footer = name ? `<footer>${escapeHtml(name)} · <a href="/">Home page</a></footer>` : '';
  const lang = look ? `lang="${escapeHtml(look.language)}" dir="${look.direction}"` : 'lang="en"';
  const icon = look?.favicon
    ? `<link rel="icon" href="/media/${encodeURIComponent(look.favicon)}">`
    : '<link rel="icon" href="/favicon.svg" type="image/svg+xml">';
  const fullTitle = look ? `${title} · ${look.title}` : title;
  return `<!DOCTYPE html><html ${lang}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">${icon}<title>${escapeHtml(fullTitle)}</title><style>${STYLE}</style></head><body>${header}<main><h1>${escapeHtml(heading)}</h1>${body}</main>${footer}</body></html>`;
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
  developerError,
}: {
  host: string;
  digest?: string;
  kept?: KeptText;
  /** In development only (development.ts): the error itself, for the developer. */
  developerError?: unknown;
}): string {
  return staticPage({
    title: 'Application error',
    heading: fallbackMessage('server', host),
    site: host,
    body: `<p>Something went wrong on our side, and it has been recorded. Try again in a moment, or <a href="/">go to the home page</a>.</p>${digest ? `<p class="digest">Digest: ${escapeHtml(digest)}</p>` : ''}${developerError === undefined ? '' : developerErrorHtml(developerError)}${keptTextHtml(kept)}`,
  });
}

/** The error's message and stack, as a developer needs them (`bun run dev` only). */
function developerErrorHtml(error: unknown): string {
  const text =
    error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return `<section class="dev-error" aria-label="The error (shown in development only)"><h2>The error (shown by <code>bun run dev</code> only)</h2><pre>${escapeHtml(text)}</pre></section>`;
}
