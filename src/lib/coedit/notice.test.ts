// A notice (Folio's message 7) as the server makes it and the browser reads it, and the
// awareness channel's payload that carries one to the other instances.
import { describe, expect, test } from 'bun:test';
import { awarenessPayload, readAwarenessPayload } from './awareness-relay';
import { type DraftNotice, encodeNotice, parseNotice } from './notice';

const NOTICE: DraftNotice = {
  change: 'discarded',
  by: 'Ann: “the editor”',
  byKey: 'ann@example.com',
  at: '2026-11-27T13:00:00.000Z',
};

describe('notices of a change from outside the document', () => {
  test('read back as made, across the awareness channel too', () => {
    expect(parseNotice(encodeNotice(NOTICE))).toEqual(NOTICE);
    const payload = awarenessPayload(12, 'abcd1234', { notice: encodeNotice(NOTICE) });
    const read = readAwarenessPayload(payload);
    expect(read).toEqual({ pageId: 12, instance: 'abcd1234', notice: encodeNotice(NOTICE) });
    // Awareness updates and queries read as before.
    expect(readAwarenessPayload(awarenessPayload(12, 'abcd1234', 'query'))).toEqual({
      pageId: 12,
      instance: 'abcd1234',
      query: true,
    });
    expect(readAwarenessPayload(awarenessPayload(12, 'x', new Uint8Array([1, 2, 3])))).toEqual({
      pageId: 12,
      instance: 'x',
      update: new Uint8Array([1, 2, 3]),
    });
  });

  test('anything else is not a notice', () => {
    for (const value of [
      '',
      'null',
      '[]',
      '{"change":"exploded","by":null,"byKey":null,"at":"2026-11-27T13:00:00Z"}',
      '{"change":"saved","by":1,"byKey":null,"at":"2026-11-27T13:00:00Z"}',
      `{"change":"saved","by":"${'x'.repeat(400)}","byKey":null,"at":"2026-11-27T13:00:00Z"}`,
      '{"change":"saved","by":null,"byKey":null,"at":"yesterday"}',
    ])
      expect(parseNotice(value)).toBeNull();
    expect(readAwarenessPayload('12:abcd:!not base64!')).toBeNull();
  });
});
