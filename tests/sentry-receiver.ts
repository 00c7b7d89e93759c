// A real Sentry ingest stand-in on 127.0.0.1: accepts envelopes over HTTP exactly as the SDKs
// send them, parses them, and lets tests read what arrived (GET /__envelopes).

export type EnvelopeItem = {
  header: { type?: string; length?: number } & Record<string, unknown>;
  payload: unknown;
};
export type ReceivedEnvelope = { header: Record<string, unknown>; items: EnvelopeItem[] };

export function parseEnvelope(bytes: Uint8Array): ReceivedEnvelope {
  const decoder = new TextDecoder();
  let offset = 0;
  const readLine = () => {
    const end = bytes.indexOf(10, offset);
    const line = decoder.decode(bytes.subarray(offset, end === -1 ? bytes.length : end));
    offset = end === -1 ? bytes.length : end + 1;
    return line;
  };
  const header = JSON.parse(readLine()) as Record<string, unknown>;
  const items: EnvelopeItem[] = [];
  while (offset < bytes.length) {
    const line = readLine();
    if (!line.trim()) continue;
    const itemHeader = JSON.parse(line) as EnvelopeItem['header'];
    let raw: string;
    if (typeof itemHeader.length === 'number') {
      raw = decoder.decode(bytes.subarray(offset, offset + itemHeader.length));
      offset += itemHeader.length + 1;
    } else {
      raw = readLine();
    }
    let payload: unknown = raw;
    try {
      payload = JSON.parse(raw);
    } catch {
      // attachments and other binary items stay as text
    }
    items.push({ header: itemHeader, payload });
  }
  return { header, items };
}

export type EnvelopeReceiver = {
  url: string;
  dsn: string;
  envelopes: ReceivedEnvelope[];
  stop: () => void;
};

export function startEnvelopeReceiver({
  port = 0,
  publicKey = 'foliotestkey',
  projectId = '1',
} = {}): EnvelopeReceiver {
  const envelopes: ReceivedEnvelope[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port,
    async fetch(request) {
      const url = new URL(request.url);
      if (request.method === 'GET' && url.pathname === '/__envelopes')
        return Response.json(envelopes);
      if (request.method === 'DELETE' && url.pathname === '/__envelopes') {
        envelopes.length = 0;
        return new Response(null, { status: 204 });
      }
      if (request.method === 'POST' && /^\/api\/[^/]+\/envelope\/?$/.test(url.pathname)) {
        let body = new Uint8Array(await request.arrayBuffer());
        if (request.headers.get('content-encoding') === 'gzip') body = Bun.gunzipSync(body);
        try {
          envelopes.push(parseEnvelope(body));
        } catch {
          return new Response('bad envelope', { status: 400 });
        }
        return Response.json({});
      }
      return new Response('not found', { status: 404 });
    },
  });
  const base = `http://127.0.0.1:${server.port}`;
  return {
    url: base,
    dsn: `http://${publicKey}@127.0.0.1:${server.port}/${projectId}`,
    envelopes,
    stop: () => server.stop(true),
  };
}

/** Error events (not spans or sessions) among the envelopes. */
export function errorEvents(envelopes: ReceivedEnvelope[]) {
  return envelopes.flatMap((envelope) =>
    envelope.items
      .filter((item) => item.header.type === 'event')
      .map(
        (item) =>
          item.payload as {
            event_id: string;
            tags?: Record<string, string>;
            sdk?: { name?: string; version?: string };
            exception?: {
              values?: { type?: string; value?: string; stacktrace?: { frames?: unknown[] } }[];
            };
          },
      ),
  );
}

export type ReceivedSpan = {
  name?: string;
  trace_id?: string;
  is_segment?: boolean;
  attributes?: Record<string, { value?: unknown }>;
};

/** Spans as the v11 SDKs stream them: `span` items holding a version-2 list of spans. */
export function spans(envelopes: ReceivedEnvelope[]): ReceivedSpan[] {
  return envelopes.flatMap((envelope) =>
    envelope.items
      .filter((item) => item.header.type === 'span')
      .flatMap((item) => (item.payload as { items?: ReceivedSpan[] }).items ?? []),
  );
}

/** A span's operation (`pageload`, `http.server`, `db.query`, …). */
export function spanOp(span: ReceivedSpan): unknown {
  return span.attributes?.['sentry.op']?.value;
}
