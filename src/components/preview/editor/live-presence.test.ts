import { describe, expect, test } from 'bun:test';
import * as Y from 'yjs';
import {
  CLOSE,
  MESSAGE_ACK,
  MESSAGE_AWARENESS,
  MESSAGE_IDENTITY,
  MESSAGE_NOTICE,
  MESSAGE_PERSON,
  MESSAGE_QUERY_AWARENESS,
  MESSAGE_SYNC,
} from '../../../lib/coedit/documents';
import {
  BODY_TEXT as SERVER_BODY_TEXT,
  SUMMARY_TEXT as SERVER_SUMMARY_TEXT,
  TITLE_TEXT as SERVER_TITLE_TEXT,
} from '../../../lib/coedit/storage';
import { smallestEdit } from '../../../lib/content/text-edits';
import * as client from './live-document';
import * as presence from './live-presence';
import {
  bodySourceOf,
  colourOf,
  firstSyncText,
  liveSocketUrl,
  liveStatusOf,
  liveUserOf,
  mapCaret,
  othersHere,
  PRESENCE_COLOURS,
  retryDelayMs,
} from './live-presence';

/** WCAG's relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('who a person is to the others', () => {
  test('a colour from their identity: the same every time, case and spaces aside', () => {
    expect(colourOf('ada@example.com')).toBe(colourOf('ada@example.com'));
    expect(liveUserOf({ email: ' Ada@Example.com', name: null }).color).toBe(
      colourOf('ada@example.com'),
    );
    // Spread over the palette: 40 people use more than half of it.
    const used = new Set(Array.from({ length: 40 }, (_, i) => colourOf(`p${i}@example.com`)));
    expect(used.size).toBeGreaterThan(PRESENCE_COLOURS.length / 2);
  });

  test('every colour is readable under white text and visible on the light page', () => {
    for (const colour of PRESENCE_COLOURS) {
      expect(contrast(colour, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      // The light theme's page (site.css --bg).
      expect(contrast(colour, '#fdfcfa')).toBeGreaterThanOrEqual(3);
    }
  });

  test('the name shown is the profile name, else the e-mail', () => {
    expect(liveUserOf({ email: 'ada@example.com', name: 'Ada Lovelace' }).name).toBe(
      'Ada Lovelace',
    );
    expect(liveUserOf({ email: 'ada@example.com', name: '  ' }).name).toBe('ada@example.com');
  });
});

describe('who is here', () => {
  const user = (key: string, name = key) => ({ user: { key, name, color: colourOf(key) } });

  test('one entry a person however many tabs, never oneself, in name order', () => {
    const states = new Map<number, unknown>([
      [1, user('me@example.com')],
      [2, user('me@example.com')],
      [3, user('zoe@example.com', 'Zoe')],
      [4, user('bo@example.com', 'Bo')],
      [5, user('zoe@example.com', 'Zoe')],
    ]);
    expect(othersHere(states, 'me@example.com').map((p) => p.name)).toEqual(['Bo', 'Zoe']);
  });

  test('a state without a usable user is left out; a bad colour is replaced', () => {
    const states = new Map<number, unknown>([
      [1, null],
      [2, { cursor: {} }],
      [3, { user: { key: 5, name: 'x' } }],
      [4, { user: { key: 'eve@example.com', name: 'Eve', color: 'red; background: url(x)' } }],
    ]);
    expect(othersHere(states, 'me@example.com')).toEqual([
      { key: 'eve@example.com', name: 'Eve', color: colourOf('eve@example.com') },
    ]);
  });
});

describe('saving while live', () => {
  test('the body comes from the document once bound and while bound, else from the form', () => {
    expect(bodySourceOf('connecting', false)).toBe('form');
    expect(bodySourceOf('unavailable', false)).toBe('form');
    expect(bodySourceOf('synced', false)).toBe('form');
    expect(bodySourceOf('synced', true)).toBe('document');
    // Offline after binding: the document still holds the body (sent on reconnect); a form
    // body now would be merged in again when the updates arrive.
    expect(bodySourceOf('offline', true)).toBe('document');
    // Signed out: as offline, the document keeps the typing and sends it once signed in again
    // (a form save against the version the page was rendered with conflicted with every line
    // typed live since, and "mine" put the others' lines in twice: the fault run, 0051).
    expect(bodySourceOf('paused', true)).toBe('document');
    // Someone else signed in in this browser: never the form's body, which would save the first
    // person's text as the second's.
    expect(bodySourceOf('someoneElse', true)).toBe('document');
    // Refused for good: the form's body is the only way left to keep the text.
    expect(bodySourceOf('refused', true)).toBe('form');
  });

  test('the status line: saved only when nothing is pending', () => {
    expect(liveStatusOf('synced', 0)).toEqual({ kind: 'saved' });
    expect(liveStatusOf('synced', 2)).toEqual({ kind: 'saving' });
    expect(liveStatusOf('offline', 1)?.message).toMatch(/kept in this tab/);
    expect(liveStatusOf('refused', 0)?.kind).toBe('refused');
    expect(liveStatusOf('paused', 1)?.message).toMatch(
      /kept in this tab and sent once you are signed in/,
    );
    expect(liveStatusOf('paused', 0)?.message).toMatch(/Everything you typed is saved/);
    expect(liveStatusOf('unavailable', 0)).toBeNull();
  });
});

describe('the first sync', () => {
  const rendered = 'One.\n\nTwo.\n';
  test('nothing typed before it: the document’s text, whatever it holds', () => {
    expect(firstSyncText(rendered, rendered, 'One.\n\nTwo.\n\nThree, by another.\n')).toBe(
      'One.\n\nTwo.\n\nThree, by another.\n',
    );
  });

  test('typed before it: the typing merged in once, the document’s own text never twice', () => {
    const typed = 'One, typed early.\n\nTwo.\n';
    // The document is still the rendered text: the typing as it is.
    expect(firstSyncText(typed, rendered, rendered)).toBe(typed);
    // Another changed another paragraph meanwhile: both.
    expect(firstSyncText(typed, rendered, 'One.\n\nTwo, by another.\n')).toBe(
      'One, typed early.\n\nTwo, by another.\n',
    );
    // The document already holds the typing (an earlier bind): taken as it is, not doubled.
    expect(firstSyncText(typed, rendered, typed)).toBe(typed);
  });
});

describe('the connection', () => {
  test('the socket is on the page’s own host, wss beside https', () => {
    expect(liveSocketUrl({ protocol: 'http:', host: 'localhost:3000' }, 'about')).toBe(
      'ws://localhost:3000/preview/about?live',
    );
    expect(liveSocketUrl({ protocol: 'https:', host: 'example.com' }, 'about')).toBe(
      'wss://example.com/preview/about?live',
    );
  });

  test('reconnects back off to 30 s', () => {
    const mid = () => 0.5;
    expect(retryDelayMs(1, mid)).toBe(1_000);
    expect(retryDelayMs(2, mid)).toBe(2_000);
    expect(retryDelayMs(10, mid)).toBe(30_000);
  });

  test('the client speaks the server’s message numbers and field names', () => {
    expect([
      client.MESSAGE_SYNC,
      client.MESSAGE_AWARENESS,
      client.MESSAGE_QUERY_AWARENESS,
      client.MESSAGE_ACK,
      client.MESSAGE_IDENTITY,
      client.MESSAGE_PERSON,
      client.MESSAGE_NOTICE,
    ]).toEqual([
      MESSAGE_SYNC,
      MESSAGE_AWARENESS,
      MESSAGE_QUERY_AWARENESS,
      MESSAGE_ACK,
      MESSAGE_IDENTITY,
      MESSAGE_PERSON,
      MESSAGE_NOTICE,
    ]);
    expect(presence.SIGNED_OUT_CLOSE).toBe(CLOSE.signedOut);
    expect(presence.FORBIDDEN_CLOSE).toBe(CLOSE.forbidden);
    expect(presence.GONE_CLOSE).toBe(CLOSE.gone);
    expect(presence.RESTART_CLOSE).toBe(CLOSE.restart);
    expect(presence.TRY_AGAIN_CLOSE).toBe(CLOSE.tryAgain);
    expect(client.BODY_TEXT).toBe(SERVER_BODY_TEXT);
    expect(client.TITLE_TEXT).toBe(SERVER_TITLE_TEXT);
    expect(client.SUMMARY_TEXT).toBe(SERVER_SUMMARY_TEXT);
  });
});

describe('the title and summary inputs, bound', () => {
  /** Another person's edit (Yjs's own delta for it) and where a caret at `at` goes. */
  function remote(before: string, edit: (text: Y.Text) => void, at: number) {
    const doc = new Y.Doc();
    const text = doc.getText('title');
    text.insert(0, before);
    let delta: Y.YTextEvent['delta'] = [];
    text.observe((event) => {
      delta = event.delta;
    });
    edit(text);
    const after = text.toString();
    doc.destroy();
    return { after, caret: mapCaret(at, delta) };
  }

  test('a caret keeps its place in the words around it as another person edits', () => {
    // Inserted before the caret: pushed on, still before the same letter.
    const before = remote('Hello world', (t) => t.insert(0, 'Oh, '), 6);
    expect(before.after.slice(before.caret)).toBe('world');
    // After it: not moved.
    expect(remote('Hello world', (t) => t.insert(11, '!'), 6).caret).toBe(6);
    // Deleted before it: pulled back, still before the same letter.
    const deleted = remote('Hello big world', (t) => t.delete(6, 4), 10);
    expect(deleted.after.slice(deleted.caret)).toBe('world');
    // Inside what was deleted: where that text was.
    expect(remote('Hello big world', (t) => t.delete(5, 6), 8).caret).toBe(5);
    // Several changes in one transaction.
    const both = remote(
      'a title here',
      (t) =>
        t.doc?.transact(() => {
          t.insert(0, 'A ');
          t.delete(4, 6);
        }),
      8,
    );
    expect(both.after).toBe('A a here');
    expect(both.after.slice(both.caret)).toBe('here');
  });

  test('an input change reaches the document as the smallest edit: both people’s typing kept', () => {
    // Two copies of the document, each changed as its input was (the smallest edit from what
    // the input showed), then exchanged: neither person's letters are lost or doubled.
    const [a, b] = [new Y.Doc(), new Y.Doc()];
    a.getText('title').insert(0, 'Spring notes');
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    const typed = (doc: Y.Doc, value: string) => {
      const text = doc.getText('title');
      const edit = smallestEdit(text.toString(), value);
      doc.transact(() => {
        if (edit.remove > 0) text.delete(edit.at, edit.remove);
        if (edit.insert) text.insert(edit.at, edit.insert);
      });
    };
    typed(a, 'Early spring notes');
    typed(b, 'Spring notes, revised');
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    expect(a.getText('title').toString()).toBe('Early spring notes, revised');
    expect(b.getText('title').toString()).toBe('Early spring notes, revised');
    a.destroy();
    b.destroy();
  });
});
