// Owns the invitation email (issue 28, decision 0043): what it says — who invited whom, to
// which site and address, with which role, the link, when it expires — as plain text with a
// simple HTML alternative, and sending it once the invitation is committed. Every value that
// reaches a header is made one line first: a title or address carrying CR/LF adds no header.
import 'server-only';
import { siteSettingsIn } from '../content/settings';
import type { Query } from '../data/db';
import { type MailOutcome, mailSettings, type OutgoingMail, sendMail } from '../mail/send';
import { ROLE_LABELS, type Role } from './permissions';

export type InvitationEmailDetails = {
  to: string;
  inviter: string;
  siteTitle: string;
  /** The site's address (its origin), where the invitee will work. */
  siteAddress: string;
  role: Role;
  link: string;
  /** ISO time. */
  expiresAt: string;
};

/** One line, no control characters (CR, LF, NUL, tabs…), at most `max` characters. */
export function oneLine(value: string, max = 200): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
  const flat = value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The expiry as a person reads it, in UTC (the email has no time zone of the reader's). */
function expiryText(iso: string): string {
  const at = new Date(iso);
  const formatted = new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(at);
  return `${formatted} UTC`;
}

/** The message for `details`: subject, text and HTML (no From: sendMail adds MAIL_FROM). */
export function invitationEmail(details: InvitationEmailDetails): OutgoingMail {
  const inviter = oneLine(details.inviter, 254);
  const site = oneLine(details.siteTitle, 120) || 'Folio';
  const address = oneLine(details.siteAddress, 300);
  const role = ROLE_LABELS[details.role] ?? oneLine(details.role, 30);
  const link = oneLine(details.link, 500);
  const expires = expiryText(details.expiresAt);
  const text = [
    `${inviter} has invited you to join ${site} (${address}) as ${role}.`,
    '',
    'To accept, open this link and choose a password:',
    link,
    '',
    `The link works once and expires on ${expires}.`,
    'If you did not expect this, ignore this email: nothing happens unless the link is opened.',
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body>',
    `<p>${escapeHtml(inviter)} has invited you to join <strong>${escapeHtml(site)}</strong> (${escapeHtml(address)}) as ${escapeHtml(role)}.</p>`,
    `<p><a href="${escapeHtml(link)}">Accept the invitation and choose a password</a></p>`,
    `<p>Or copy this link: ${escapeHtml(link)}</p>`,
    `<p>The link works once and expires on ${escapeHtml(expires)}. If you did not expect this, ignore this email: nothing happens unless the link is opened.</p>`,
    '</body></html>',
  ].join('\n');
  return {
    to: oneLine(details.to, 254),
    subject: oneLine(`${inviter} invited you to ${site}`, 200),
    text,
    html,
  };
}

/**
 * Emails an invitation just committed, when a mail server is configured (null otherwise). The
 * invitation stands whatever happens here: a failure is an outcome in words, never thrown.
 */
export async function emailInvitation(
  q: Query,
  details: Omit<InvitationEmailDetails, 'siteTitle'>,
): Promise<MailOutcome | null> {
  if (!mailSettings()) return null;
  let siteTitle = 'Folio';
  try {
    siteTitle = (await siteSettingsIn(q)).title;
  } catch {
    // The settings could not be read (the database busy): the email names the site by default.
  }
  return sendMail(invitationEmail({ ...details, siteTitle }), { what: 'invitation' });
}
