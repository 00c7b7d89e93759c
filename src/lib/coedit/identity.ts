// Owns the name of a page's shared document as a browser knows it (decision record 0051,
// "IndexedDB"): which one of the page's documents a copy kept in the browser belongs to. A page
// can have more than one over its life — its `coedit_documents` row deleted, or the site moved
// to a new database by `folio db copy`, which does not copy documents — and each new one is
// seeded afresh (its text as new Yjs items), so a copy of the old one merged into it would put
// every line in twice. Browser-safe: the server sends it (documents.ts), the client reads it.

/**
 * The document's identity: the page's id and when its row was made (ms since 1970, base 36).
 * A row made again is made later, so its identity differs; a backup restored keeps the same
 * row (and its text's history), which a copy may rightly merge into.
 */
export function documentIdentity(pageId: number, createdAt: string): string {
  const ms = Date.parse(createdAt);
  // Rows are written with toISOString(); anything else still names the row it is.
  const made = Number.isFinite(ms) ? ms.toString(36) : `x${hashOf(createdAt)}`;
  return `${pageId}.${made}`;
}

const IDENTITY = /^([1-9][0-9]{0,14})\.(x?[0-9a-z]{1,16})$/;

/** The page an identity is of; null for anything that is not one (a client ignores it). */
export function parseIdentity(value: string): { pageId: number; identity: string } | null {
  const match = IDENTITY.exec(value);
  if (!match) return null;
  return { pageId: Number(match[1]), identity: value };
}

/** A short, stable hash (FNV-1a, hex): for names that should not carry what they are of. */
export function hashOf(value: string): string {
  let hash = 2166136261;
  for (let i = 0; i < value.length; i += 1) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
