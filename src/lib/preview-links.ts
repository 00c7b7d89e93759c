// Owns shareable preview links: signed, expiring, read-only access to one page's draft.
import 'server-only';
import { signPayload, verifyPayload } from './signing';

export const DEFAULT_PREVIEW_LINK_TTL_SECONDS = 24 * 60 * 60;

type PreviewClaim = { v: 1; slug: string; exp: number };

export type PreviewLinkCheck =
  | { ok: true; slug: string; expiresAt: Date }
  | { ok: false; reason: 'invalid' | 'expired' | 'wrong-page' };

export function createPreviewToken(
  secret: string,
  slug: string,
  { ttlSeconds = DEFAULT_PREVIEW_LINK_TTL_SECONDS, now = Date.now() } = {},
): string {
  const claim: PreviewClaim = { v: 1, slug, exp: Math.floor(now / 1000) + ttlSeconds };
  return signPayload(secret, claim);
}

export function checkPreviewToken(
  secret: string,
  token: string,
  slug: string,
  now = Date.now(),
): PreviewLinkCheck {
  const claim = verifyPayload(secret, token) as Partial<PreviewClaim> | null;
  if (claim?.v !== 1 || typeof claim.slug !== 'string' || typeof claim.exp !== 'number') {
    return { ok: false, reason: 'invalid' };
  }
  if (claim.slug !== slug) return { ok: false, reason: 'wrong-page' };
  if (claim.exp * 1000 <= now) return { ok: false, reason: 'expired' };
  return { ok: true, slug: claim.slug, expiresAt: new Date(claim.exp * 1000) };
}

/** Parses `90s`, `15m`, `24h`, `7d` into seconds; null for anything else. */
export function parseTtl(text: string): number | null {
  const match = /^(\d{1,6})([smhd])$/.exec(text.trim());
  if (!match) return null;
  const value = Number(match[1]);
  const unit = { s: 1, m: 60, h: 3600, d: 86400 }[match[2] as 's' | 'm' | 'h' | 'd'];
  const seconds = value * unit;
  return seconds > 0 && seconds <= 365 * 86400 ? seconds : null;
}

export function previewLinkPath(slug: string, token: string): string {
  const path = slug === 'home' ? '/preview' : `/preview/${slug}`;
  return `${path}?share=${encodeURIComponent(token)}`;
}
