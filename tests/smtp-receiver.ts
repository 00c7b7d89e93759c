// A real SMTP receiver on 127.0.0.1 (smtp-server, the library nodemailer's author keeps for
// this): it takes mail as a mail server does — greeting, AUTH, MAIL FROM, RCPT TO, DATA — and
// keeps each message, raw and decoded, for a test to read. It can refuse every recipient (550)
// as a mail server refuses an address it will not deliver to. No TLS: loopback only.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = {
  /** The envelope's MAIL FROM and RCPT TO (what the server was told, not the headers). */
  envelopeFrom: string;
  envelopeTo: string[];
  /** Who signed in to send it (AUTH), if anyone. */
  user?: string;
  /** The message as it arrived, CRLF lines. */
  raw: string;
  /** Header lines, unfolded, in order: [name in lower case, value]. */
  headers: [string, string][];
  /** The text/plain and text/html parts, transfer-decoded. */
  text: string;
  html: string;
};

export type SmtpReceiver = {
  port: number;
  /** An SMTP_URL for this receiver, signing in as `user:pass` when given. */
  url: (credentials?: string) => string;
  messages: ReceivedMail[];
  /** The passwords AUTH was given (to check a test's server never prints them). */
  passwords: string[];
  /** Answer every RCPT TO with 550 from now on (or not): one receiver, both behaviours. */
  refuseRecipients: (refuse: boolean) => void;
  stop: () => Promise<void>;
};

const decoder = new TextDecoder();

function unfoldHeaders(block: string): [string, string][] {
  return block
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n')
    .filter((line) => line.includes(':'))
    .map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    });
}

function decodeBody(body: string, encoding: string | undefined): string {
  const bytes = (() => {
    if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    if (encoding === 'quoted-printable')
      return Buffer.from(
        body
          .replace(/=\r\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      );
    return Buffer.from(body, 'utf8');
  })();
  return decoder.decode(bytes);
}

/** The text and HTML parts of a message: a single part, or one level of multipart. */
function partsOf(raw: string): { headers: [string, string][]; text: string; html: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = unfoldHeaders(raw.slice(0, split));
  const body = raw.slice(split + 4);
  const header = (list: [string, string][], name: string) =>
    list.find(([key]) => key === name)?.[1];
  const found = { text: '', html: '' };
  const take = (partHeaders: [string, string][], partBody: string) => {
    const type = header(partHeaders, 'content-type') ?? 'text/plain';
    const decoded = decodeBody(partBody, header(partHeaders, 'content-transfer-encoding'));
    if (type.startsWith('text/plain')) found.text = decoded;
    if (type.startsWith('text/html')) found.html = decoded;
  };
  const boundary = /boundary="?([^";]+)"?/.exec(header(headers, 'content-type') ?? '')?.[1];
  if (!boundary) take(headers, body);
  else
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const end = part.indexOf('\r\n\r\n');
      take(unfoldHeaders(part.slice(2, end)), part.slice(end + 4).replace(/\r\n$/, ''));
    }
  return { headers, ...found };
}

/**
 * Starts a receiver on a port the OS picks. `refuseRecipients`: every RCPT TO is answered
 * 550, as a server refusing the address does.
 */
export async function startSmtpReceiver({
  refuseRecipients = false,
}: {
  refuseRecipients?: boolean;
} = {}): Promise<SmtpReceiver> {
  let refusing = refuseRecipients;
  const messages: ReceivedMail[] = [];
  const passwords: string[] = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: the client must not be offered STARTTLS with a certificate it
    // cannot check; AUTH over it is allowed for the same reason.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.password) passwords.push(auth.password);
      callback(null, { user: auth.username ?? '' });
    },
    onRcptTo(_address, _session, callback) {
      if (!refusing) return callback();
      const refusal = Object.assign(new Error('No such mailbox here'), { responseCode: 550 });
      callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1');
        const mailFrom = session.envelope.mailFrom;
        messages.push({
          envelopeFrom: mailFrom ? mailFrom.address : '',
          envelopeTo: session.envelope.rcptTo.map((each) => each.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          raw,
          ...partsOf(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: (credentials) => `smtp://${credentials ? `${credentials}@` : ''}127.0.0.1:${port}`,
    messages,
    passwords,
    refuseRecipients: (refuse) => {
      refusing = refuse;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
