// A co-editing client as a browser's would be (docs/decisions/0050): a Y.Doc kept in step with a
// page's live document over a real WebSocket, speaking y-protocols' sync (and Folio's
// acknowledgement, message 4). It keeps every update it sent and which of them the server
// acknowledged, so a test can check that what was acknowledged is in the end state.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';

const MESSAGE_SYNC = 0;
const MESSAGE_ACK = 4;

export type Closed = { code: number; reason: string };

export class CoeditClient {
  readonly doc = new Y.Doc();
  readonly text = this.doc.getText('body');
  readonly title = this.doc.getText('title');
  readonly summary = this.doc.getText('summary');
  /** Every update the server acknowledged (stored), from every connection. */
  readonly acknowledged: Uint8Array[] = [];
  socket: WebSocket | null = null;
  synced = false;
  lastClose: Closed | null = null;
  /** Messages other than sync and acknowledgement (awareness: 1), for a test to read. */
  onOther: ((kind: number, decoder: decoding.Decoder) => void) | null = null;
  /** Updates sent on the current connection, in order; the server acknowledges a count. */
  private sent: Uint8Array[] = [];
  private ackedHere = 0;

  constructor(readonly name: string) {
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === 'server') return;
      if (this.socket && this.synced) this.sendUpdate(update, syncProtocol.messageYjsUpdate);
    });
  }

  get connected(): boolean {
    return this.socket !== null;
  }

  private sendUpdate(update: Uint8Array, step: number) {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_SYNC);
    encoding.writeVarUint(encoder, step);
    encoding.writeVarUint8Array(encoder, update);
    this.sent.push(update);
    this.socket?.send(encoding.toUint8Array(encoder));
  }

  /** Opens a connection and resolves once the server's state is applied (its sync step 2). */
  connect(url: string, headers: Record<string, string>, timeoutMs = 15_000): Promise<void> {
    const socket = new WebSocket(url, { headers } as unknown as string[]);
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    this.synced = false;
    this.sent = [];
    this.ackedHere = 0;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`${this.name}: not synced within ${timeoutMs} ms`));
        socket.close();
      }, timeoutMs);
      socket.onopen = () => {
        const encoder = encoding.createEncoder();
        encoding.writeVarUint(encoder, MESSAGE_SYNC);
        syncProtocol.writeSyncStep1(encoder, this.doc);
        socket.send(encoding.toUint8Array(encoder));
      };
      socket.onmessage = (event) => {
        if (this.socket !== socket) return;
        const decoder = decoding.createDecoder(new Uint8Array(event.data as ArrayBuffer));
        const kind = decoding.readVarUint(decoder);
        if (kind === MESSAGE_ACK) {
          const count = decoding.readVarUint(decoder);
          for (; this.ackedHere < count; this.ackedHere += 1) {
            const update = this.sent[this.ackedHere];
            if (update) this.acknowledged.push(update);
          }
          return;
        }
        if (kind !== MESSAGE_SYNC) {
          this.onOther?.(kind, decoder);
          return;
        }
        const step = decoding.readVarUint(decoder);
        const payload = decoding.readVarUint8Array(decoder);
        if (step === syncProtocol.messageYjsSyncStep1) {
          // What the server lacks: edits made offline among them.
          this.sendUpdate(
            Y.encodeStateAsUpdate(this.doc, payload),
            syncProtocol.messageYjsSyncStep2,
          );
          return;
        }
        Y.applyUpdate(this.doc, payload, 'server');
        if (step === syncProtocol.messageYjsSyncStep2 && !this.synced) {
          this.synced = true;
          clearTimeout(timer);
          resolve();
        }
      };
      socket.onclose = (event) => {
        clearTimeout(timer);
        if (this.socket === socket) {
          this.socket = null;
          this.synced = false;
        }
        this.lastClose = { code: event.code, reason: event.reason };
        reject(new Error(`${this.name}: closed (${event.code} ${event.reason}) before sync`));
      };
    });
  }

  /** Sends raw bytes (a hostile client's frame). */
  sendRaw(bytes: Uint8Array<ArrayBuffer> | string): void {
    this.socket?.send(bytes);
  }

  /** Closes the connection from this side; unacknowledged updates are simply not acknowledged. */
  disconnect(): void {
    const socket = this.socket;
    this.socket = null;
    this.synced = false;
    socket?.close();
  }

  /** Whether every update sent on this connection has been acknowledged. */
  get allAcknowledged(): boolean {
    return this.ackedHere >= this.sent.length;
  }
}

/**
 * The acknowledged updates that `doc` does not hold: items it lacks (its state vector is behind)
 * or deletions it has not made. Empty when everything acknowledged is in it.
 */
export function missingFrom(doc: Y.Doc, acknowledged: readonly Uint8Array[]): string[] {
  const snapshot = Y.snapshot(doc);
  const have = Y.encodeStateVector(doc);
  const vector = Y.decodeStateVector(have);
  const missing: string[] = [];
  for (const update of acknowledged) {
    const meta = Y.parseUpdateMeta(update);
    for (const [client, clock] of meta.to)
      if ((vector.get(client) ?? 0) < clock)
        missing.push(`items of client ${client} up to clock ${clock}`);
    const { ds } = Y.decodeUpdate(update);
    for (const [client, items] of ds.clients)
      for (const item of items)
        for (const clock of [item.clock, item.clock + item.len - 1])
          if (!Y.isDeleted(snapshot.ds, Y.createID(client, clock)))
            missing.push(`deletion of ${client}:${clock}`);
  }
  return missing;
}
