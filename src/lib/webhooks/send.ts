// Owns the one HTTP request a webhook delivery is (docs/decisions/0046): signed per the
// Standard Webhooks specification with its own library (`standardwebhooks`), sent to an address
// checked at this very send and connected to as checked (a name is resolved here, each time,
// and the socket opened to the address that passed: a name re-pointed at 127.0.0.1 after
// registration is refused, and there is no second lookup to rebind). Written on a socket of
// its own, as the purge request is (http/purge-request.ts), so nothing follows a redirect (a 3xx
// is a failure), the wait is bounded (10 s in all), and at most 4 KB of the answer is read.
import 'server-only';
import { lookup } from 'node:dns/promises';
import { Webhook } from 'standardwebhooks';
import { isAddressLiteral, isPublicAddress } from './addresses';

export const SEND_TIMEOUT_MS = 10_000;
/** The most of an answer read: its status line, headers and the start of its body. */
const MAX_ANSWER_BYTES = 4 * 1024;
const EXCERPT_CHARS = 500;

export type WebhookRequest = {
  url: string;
  secret: string;
  /** The idempotency key the receiver sees as `webhook-id`, the same at every attempt. */
  messageId: string;
  body: string;
  at: Date;
  allowPrivate: boolean;
  timeoutMs?: number;
  /** A certificate authority to trust besides the system's (tests: a receiver of their own). */
  ca?: string;
};

export type WebhookAnswer = {
  /** null: no answer (refused address, unreachable, timeout). */
  status: number | null;
  excerpt: string;
  latencyMs: number;
  /** Why it did not take; null for a 2xx. */
  error: string | null;
};

/** The headers of a signed delivery (the spec's three, and what the body is). */
export function signedHeaders(
  secret: string,
  messageId: string,
  at: Date,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
    'content-type': 'application/json',
  };
}

/** The address to connect to for `host`, checked; throws an Error that says why not. */
export async function addressToSend(host: string, allowPrivate: boolean): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isAddressLiteral(bare)) addresses = [bare];
  else {
    try {
      addresses = (await lookup(bare, { all: true, verbatim: true })).map((found) => found.address);
    } catch (error) {
      throw new Error(
        `cannot resolve ${bare} (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }
  if (addresses.length === 0) throw new Error(`${bare} resolves to no address`);
  // Every address must pass: a name answering both a public and a private address is refused.
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused !== undefined && !allowPrivate)
    throw new Error(
      `${bare} resolves to ${refused}, which is not on the public internet (loopback, private or link-local); not sent`,
    );
  // IPv4 first: a host with no IPv6 route would otherwise fail a name that has both.
  return (addresses.find((address) => !address.includes(':')) ?? addresses[0]) as string;
}

/** Sends the delivery once; never throws: the answer says what happened. */
export async function sendWebhook(request: WebhookRequest): Promise<WebhookAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(request.url);
  let address: string;
  try {
    address = await addressToSend(url.hostname, request.allowPrivate);
  } catch (error) {
    return {
      status: null,
      excerpt: '',
      latencyMs: elapsed(),
      error: error instanceof Error ? error.message : String(error),
    };
  }
  const body = Buffer.from(request.body, 'utf8');
  const headers = signedHeaders(request.secret, request.messageId, request.at, request.body);
  const head = [
    `POST ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    'User-Agent: Folio-Webhooks/1',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${body.length}`,
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  const tls = url.protocol === 'https:';
  const port = Number(url.port || (tls ? 443 : 80));
  const servername = url.hostname.replace(/^\[|\]$/g, '');
  const timeoutMs = request.timeoutMs ?? SEND_TIMEOUT_MS;

  const raw = await new Promise<{ text: string } | { error: string }>((resolve) => {
    const chunks: Uint8Array[] = [];
    let length = 0;
    let settled = false;
    let socket: { end(): void } | null = null;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket?.end();
      resolve(
        error === null ? { text: new TextDecoder().decode(Buffer.concat(chunks)) } : { error },
      );
    };
    const timer = setTimeout(() => finish(`no answer within ${timeoutMs} ms`), timeoutMs);
    Bun.connect({
      hostname: address,
      port,
      // The certificate is checked against the URL's host, though the socket goes to an address.
      ...(tls
        ? {
            tls: {
              serverName: servername,
              rejectUnauthorized: true,
              ...(request.ca === undefined ? {} : { ca: request.ca }),
            },
          }
        : {}),
      socket: {
        open(opened) {
          socket = opened;
          opened.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
        },
        data(_socket, data) {
          chunks.push(data);
          length += data.length;
          // Enough to see what it answered; the rest is not read.
          if (length >= MAX_ANSWER_BYTES) finish(null);
        },
        close() {
          finish(null);
        },
        error(_socket, error) {
          finish(`cannot reach it (${error.message})`);
        },
        connectError(_socket, error) {
          finish(`cannot reach it (${error.message})`);
        },
      },
    }).catch((error: unknown) =>
      finish(`cannot reach it (${error instanceof Error ? error.message : String(error)})`),
    );
  });
  const latencyMs = elapsed();
  if ('error' in raw) return { status: null, excerpt: '', latencyMs, error: raw.error };
  const text = raw.text.slice(0, MAX_ANSWER_BYTES);
  // A certificate refused (not valid for the host, not from a trusted authority) closes the
  // connection before a byte is read, as a receiver that hangs up does.
  if (text === '')
    return {
      status: null,
      excerpt: '',
      latencyMs,
      error: tls
        ? `closed without an answer (is its certificate valid for ${servername}?)`
        : 'closed without an answer',
    };
  const statusLine = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  if (!statusLine)
    return { status: null, excerpt: '', latencyMs, error: 'answered something that is not HTTP' };
  const status = Number(statusLine[1]);
  const split = text.indexOf('\r\n\r\n');
  const headerText = split === -1 ? text : text.slice(0, split);
  let excerpt = split === -1 ? '' : text.slice(split + 4);
  // A chunked answer's first chunk-size line is framing, not what it said.
  if (/^transfer-encoding:\s*chunked/im.test(headerText))
    excerpt = excerpt.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '');
  excerpt = excerpt.slice(0, EXCERPT_CHARS);
  if (status >= 200 && status <= 299) return { status, excerpt, latencyMs, error: null };
  if (status >= 300 && status <= 399) {
    const location = /^location:\s*(.*)$/im.exec(headerText)?.[1]?.trim();
    return {
      status,
      excerpt,
      latencyMs,
      error: `answered ${status}, a redirect${location ? ` to ${location.slice(0, 200)}` : ''}; redirects are not followed`,
    };
  }
  return { status, excerpt, latencyMs, error: `answered ${status}` };
}
