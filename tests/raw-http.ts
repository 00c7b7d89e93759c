// One HTTP/1.1 exchange over a raw socket: the request goes out byte for byte (a client library
// would fix the Host header, normalise the path or refuse odd methods), the answer is parsed
// just enough for a test to read.
import { connect } from 'node:net';

export type RawResponse = {
  status: number;
  headers: Map<string, string[]>;
  header: (name: string) => string | undefined;
  /** The body as text (UTF-8). */
  body: string;
  /** The body's bytes, as sent (still compressed, if it was). */
  bytes: Buffer;
};

/** Sends `head` (request line and headers, CRLF-separated, without the blank line) and `body`. */
export function rawRequest(
  baseUrl: string,
  head: string,
  body = '',
  { timeoutMs = 10_000 } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`no answer to ${head.split('\r\n')[0]}`)),
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const lines = text.slice(0, split === -1 ? text.length : split).split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
      if (status === 0) {
        reject(new Error(`no status line for ${head.split('\r\n')[0]}: ${text.slice(0, 120)}`));
        return;
      }
      const headers = new Map<string, string[]>();
      for (const line of lines.slice(1)) {
        const at = line.indexOf(':');
        const name = line.slice(0, at).trim().toLowerCase();
        headers.set(name, [...(headers.get(name) ?? []), line.slice(at + 1).trim()]);
      }
      resolve({
        status,
        headers,
        header: (name) => headers.get(name.toLowerCase())?.join(', '),
        body: split === -1 ? '' : Buffer.from(text.slice(split + 4), 'latin1').toString('utf8'),
        bytes: split === -1 ? Buffer.alloc(0) : Buffer.from(text.slice(split + 4), 'latin1'),
      });
    });
    socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`);
  });
}

/** `METHOD path HTTP/1.1` with a Host header for the server itself, plus `headers`. */
export function rawFetch(
  baseUrl: string,
  method: string,
  path: string,
  headers: string[] = [],
  body = '',
): Promise<RawResponse> {
  const { host } = new URL(baseUrl);
  const withLength = body ? [...headers, `Content-Length: ${Buffer.byteLength(body)}`] : headers;
  return rawRequest(
    baseUrl,
    [`${method} ${path} HTTP/1.1`, `Host: ${host}`, ...withLength].join('\r\n'),
    body,
  );
}
