import { expect, test } from 'bun:test';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as Y from 'yjs';
import { awarenessPersonOf, stampAwarenessUpdate } from './awareness-identity';

const person = awarenessPersonOf(' Ada@Example.com', 'Ada Lovelace');

function updateOf(state: Record<string, unknown> | null, clientId = 7): Uint8Array {
  const awareness = new awarenessProtocol.Awareness(new Y.Doc());
  awareness.clientID = clientId;
  // A client's first state has clock 0, which a receiver that knows nothing of it ignores.
  awareness.setLocalState({});
  awareness.setLocalState(state);
  const update = awarenessProtocol.encodeAwarenessUpdate(awareness, [clientId]);
  awareness.destroy();
  return update;
}

function statesOf(update: Uint8Array): Map<number, Record<string, unknown>> {
  const awareness = new awarenessProtocol.Awareness(new Y.Doc());
  awarenessProtocol.applyAwarenessUpdate(awareness, update, 'test');
  const states = new Map(awareness.getStates());
  states.delete(awareness.clientID);
  awareness.destroy();
  return states as Map<number, Record<string, unknown>>;
}

test('the person is the one signed in: the name and key sent are replaced, the rest kept', () => {
  const sent = updateOf({ user: { key: 'eve@example.com', name: 'Eve' }, cursor: { at: 3 } });
  const stamped = stampAwarenessUpdate(sent, person, () => true) as Uint8Array;
  expect(statesOf(stamped).get(7)).toEqual({
    user: { key: 'ada@example.com', name: 'Ada Lovelace' },
    cursor: { at: 3 },
  });
  expect(awarenessPersonOf('bo@example.com', '  ').name).toBe('bo@example.com');
});

test('a colour is a hex colour or nothing: nothing else reaches a style attribute', () => {
  const sent = updateOf({
    user: { color: '#1B6E3A', colorLight: 'red; background: url(//x)' },
  });
  const user = statesOf(stampAwarenessUpdate(sent, person, () => true) as Uint8Array).get(7)?.user;
  expect(user).toEqual({ key: 'ada@example.com', name: 'Ada Lovelace', color: '#1B6E3A' });
  const odd = updateOf({ user: 'a string' });
  expect(
    statesOf(stampAwarenessUpdate(odd, person, () => true) as Uint8Array).get(7)?.user,
  ).toEqual({ key: 'ada@example.com', name: 'Ada Lovelace' });
});

test('client ids the connection may not speak for are left out; a leaving stays a leaving', () => {
  expect(stampAwarenessUpdate(updateOf({ cursor: 1 }, 9), person, (id) => id !== 9)).toBeNull();
  const left = stampAwarenessUpdate(updateOf(null), person, () => true) as Uint8Array;
  expect(statesOf(left).has(7)).toBe(false);
});

test('a malformed update throws (its connection is closed as malformed)', () => {
  const truncated = updateOf({ cursor: 1 }).slice(0, 4);
  expect(() => stampAwarenessUpdate(truncated, person, () => true)).toThrow();
  const notJson = encoding.createEncoder();
  encoding.writeVarUint(notJson, 1);
  encoding.writeVarUint(notJson, 7);
  encoding.writeVarUint(notJson, 1);
  encoding.writeVarString(notJson, '{not json');
  expect(() => stampAwarenessUpdate(encoding.toUint8Array(notJson), person, () => true)).toThrow();
  const trailing = new Uint8Array([...updateOf({ cursor: 1 }), 0]);
  expect(() => stampAwarenessUpdate(trailing, person, () => true)).toThrow();
});
