// Owns sending email (decision 0043): one message at a time through the mail server SMTP_URL
// names, by nodemailer, bounded in time, never thrown. A mail server that refuses or cannot be
// reached is an operational condition, not a bug: the caller gets a short reason in words, the
// operator one warn line naming what failed — never the message, the password or any link in it.
import 'server-only';
import { createTransport } from 'nodemailer';
import { log } from '../observability/log';
import { getEnv } from '../runtime/env';

/** Each step (connecting, the greeting, any silence after) may take this long. */
const STEP_TIMEOUT_MS = 10_000;
/** The whole send, however its steps add up: a person is waiting on the answer. */
const SEND_TIMEOUT_MS = 15_000;

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
};

/** Whether it went (the mail server accepted it), or why not, in a few words for a person. */
export type MailOutcome = { sent: true } | { sent: false; reason: string };

/** The mail server and sender, when SMTP_URL is set (MAIL_FROM then is: env.ts asks). */
export function mailSettings(): { url: string; from: string } | null {
  const { SMTP_URL, MAIL_FROM } = getEnv();
  return SMTP_URL && MAIL_FROM ? { url: SMTP_URL, from: MAIL_FROM } : null;
}

type SmtpError = { code?: unknown; responseCode?: unknown; command?: unknown };

/**
 * A nodemailer failure in fixed words: its message may quote the server, which may quote back
 * what it was sent, so it is never shown or logged.
 */
export function failureReason(error: unknown): string {
  const { code, responseCode } = (error ?? {}) as SmtpError;
  const refusedWith = typeof responseCode === 'number' ? ` (${responseCode})` : '';
  switch (code) {
    case 'ECONNECTION':
    case 'ECONNREFUSED':
    case 'ESOCKET':
      return 'the mail server could not be reached';
    case 'ETIMEDOUT':
    case 'DEADLINE':
      return 'the mail server did not answer in time';
    case 'EDNS':
      return "the mail server's name was not found";
    case 'ETLS':
      return 'no secure connection to the mail server could be made';
    case 'EAUTH':
    case 'ENOAUTH':
      return `the mail server refused Folio's sign-in${refusedWith}`;
    case 'EENVELOPE':
      return `the mail server refused the address${refusedWith}`;
    default:
      return refusedWith
        ? `the mail server refused the message${refusedWith}`
        : 'the mail server could not take it';
  }
}

/** Rejects with code DEADLINE after `ms`, so a server that holds every step still ends it. */
function deadline(ms: number): { promise: Promise<never>; clear: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('deadline'), { code: 'DEADLINE' })),
      ms,
    );
  });
  return { promise, clear: () => clearTimeout(timer) };
}

/**
 * Sends `mail` (plain text with an HTML alternative) from MAIL_FROM. `what` names it in the
 * log line. Never throws: a failure is an outcome. Null when no mail server is configured.
 * The server and the time limits can be given (the unit tests: a receiver of their own, a
 * server that never answers, without waiting 15 seconds).
 */
export async function sendMail(
  mail: OutgoingMail,
  {
    what,
    settings = mailSettings(),
    timeoutMs = SEND_TIMEOUT_MS,
    stepTimeoutMs = STEP_TIMEOUT_MS,
  }: {
    what: string;
    settings?: { url: string; from: string } | null;
    timeoutMs?: number;
    stepTimeoutMs?: number;
  },
): Promise<MailOutcome | null> {
  if (!settings) return null;
  const transport = createTransport({
    url: settings.url,
    connectionTimeout: stepTimeoutMs,
    greetingTimeout: stepTimeoutMs,
    socketTimeout: stepTimeoutMs,
    dnsTimeout: stepTimeoutMs,
    // Nothing of the conversation (AUTH carries the password) reaches the log.
    logger: false,
    debug: false,
    // The message is Folio's own text: it never names a file or URL to attach.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const limit = deadline(timeoutMs);
  const sending = transport.sendMail({
    from: settings.from,
    // An object, not a string nodemailer would parse as a list of addresses.
    to: { name: '', address: mail.to },
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  });
  // Past the deadline the send may still fail later: nobody is waiting on it any more.
  sending.catch(() => undefined);
  try {
    await Promise.race([sending, limit.promise]);
    return { sent: true };
  } catch (error) {
    const { code, responseCode } = (error ?? {}) as SmtpError;
    const reason = failureReason(error);
    log.warn(`${what} not emailed: ${reason}`, {
      code: typeof code === 'string' ? code : undefined,
      responseCode: typeof responseCode === 'number' ? responseCode : undefined,
      server: serverOf(settings.url),
    });
    return { sent: false, reason };
  } finally {
    limit.clear();
    transport.close();
  }
}

/** host:port of the mail server, for the log: the URL's user and password left out. */
function serverOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}
