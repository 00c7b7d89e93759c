// Owns the one HTTP request a purge is (docs/decisions/0045), written on a socket of its own:
// Bun's fetch sends a method it does not know (BAN, which Varnish's bans are by custom) as GET,
// and a purge hook is one short request, so HTTP/1.1 by hand is less to trust than a client.
import 'server-only';

export type PurgeRequest = {
  url: string;
  method: string;
  headers: Record<string, string>;
  timeoutMs: number;
};

/** The most of an answer read: its status line and headers, and the start of its body. */
const MAX_ANSWER_BYTES = 16 * 1024;

/** Sends the request; resolves with the status and the start of the body, or rejects. */
export function sendPurgeRequest(
  request: PurgeRequest,
): Promise<{ status: number; excerpt: string }> {
  const url = new URL(request.url);
  const tls = url.protocol === 'https:';
  const port = Number(url.port || (tls ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const head = [
    `${request.method} ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
    'Content-Length: 0',
    'Connection: close',
    '',
    '',
  ].join('\r\n');

  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let length = 0;
    let settled = false;
    let socket: { end(): void } | null = null;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket?.end();
      if (error) return reject(error);
      const text = new TextDecoder().decode(Buffer.concat(chunks));
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      if (!status) return reject(new Error('answered something that is not HTTP'));
      const body = text.indexOf('\r\n\r\n');
      resolve({
        status: Number(status[1]),
        excerpt: body === -1 ? '' : text.slice(body + 4, body + 204),
      });
    };
    const timer = setTimeout(
      () => finish(new Error(`no answer within ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    Bun.connect({
      hostname: host,
      port,
      ...(tls ? { tls: { serverName: host } } : {}),
      socket: {
        open(opened) {
          socket = opened;
          opened.write(head);
        },
        data(_socket, data) {
          chunks.push(data);
          length += data.length;
          // The status is all that decides; a long answer is not read to its end.
          if (length >= MAX_ANSWER_BYTES) finish(null);
        },
        close() {
          finish(null);
        },
        error(_socket, error) {
          finish(new Error(`cannot reach it (${error.message})`));
        },
        connectError(_socket, error) {
          finish(new Error(`cannot reach it (${error.message})`));
        },
      },
    }).catch((error: unknown) =>
      finish(
        new Error(`cannot reach it (${error instanceof Error ? error.message : String(error)})`),
      ),
    );
  });
}
