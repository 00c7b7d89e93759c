// "Put it back" while the editor shows the shared document (hostile pass, 2026-11-27 evening):
// the kept text's unsent typing is merged into the text as it is now; the lines the others
// wrote since stay.
import { describe, expect, test } from 'bun:test';
import type { EditorFormValues } from '../../../lib/editor/forms';
import { keptCovered, putBackLive } from './put-back';

const values = (body: string, more: Partial<EditorFormValues> = {}): EditorFormValues => ({
  slug: 'a',
  originalSlug: 'a',
  pageId: '42',
  title: 'A page',
  summary: '',
  body,
  version: '3',
  kind: 'page',
  topics: '',
  authors: '',
  ...more,
});
const inStep = (body: string, title = 'A page') => ({ title, summary: '', body });

describe('put back into the shared document', () => {
  // The page had been edited everywhere meanwhile (another person's line, scattered edits):
  // put back whole, the kept text took all of that away.
  const base = 'One.\n\nTwo.\n\nThree.';
  const kept = values('One.\n\nTwo.\n\nMine, never sent.\n\nThree.');
  const now = values('One, edited by them.\n\nTheirs, written since.\n\nTwo.\n\nThree.');

  test('with its base: only the unsent typing is added; the others’ lines stay', () => {
    const merged = putBackLive(kept, inStep(base), now);
    expect(merged.body).toBe(
      'One, edited by them.\n\nTheirs, written since.\n\nTwo.\n\nMine, never sent.\n\nThree.',
    );
  });

  test('where both typed at one place, both are kept, each once, theirs first', () => {
    const mine = values('One, edited by me.\n\nTwo.\n\nThree.');
    const merged = putBackLive(mine, inStep(base), now);
    expect(merged.body).toBe(
      'One, edited by them, edited by me.\n\nTheirs, written since.\n\nTwo.\n\nThree.',
    );
  });

  test('with the text the server had stored as its base, typing stored since is not put in twice', () => {
    // The base read only when every keystroke was stored came seldom under steady typing: the
    // words stored since were then put back beside themselves.
    const stored = 'One.\n\nTwo, typed and stored';
    const kept = values('One.\n\nTwo, typed and stored, and unsent.');
    const remote = values('One.\n\nTwo, typed and stored');
    expect(putBackLive(kept, inStep(stored), remote).body).toBe(kept.body);
  });

  test('without a base (a copy kept before bases were): nothing of either side is lost', () => {
    const merged = putBackLive(kept, null, now);
    for (const line of ['Mine, never sent.', 'One, edited by them.', 'Theirs, written since.'])
      expect(merged.body).toContain(line);
  });

  test('a title typed since the base is put back; one changed only by the others stays theirs', () => {
    const retitled = putBackLive(values(base, { title: 'My title' }), inStep(base), now);
    expect(retitled.title).toBe('My title');
    const theirs = putBackLive(values(base), inStep(base), values(base, { title: 'Their title' }));
    expect(theirs.title).toBe('Their title');
  });
});

describe('a kept text with nothing of its own is not offered', () => {
  const base = 'One.\n\nTwo.';
  const rendered = values('One, edited by them.\n\nTwo.\n\nMine.');

  test('its typing is all on screen, though the others changed the lines around it', () => {
    // The hostile pass's "worse variant": every line the others had edited made the old rule
    // ("every line it added is on screen") offer it, and putting it back reverted them.
    const kept = values('One.\n\nTwo.\n\nMine.');
    expect(keptCovered(kept, inStep(base), rendered, rendered)).toBe(true);
  });

  test('offered while some of its typing is not on screen', () => {
    const kept = values('One.\n\nTwo.\n\nMine.\n\nMore of mine.');
    expect(keptCovered(kept, inStep(base), rendered, rendered)).toBe(false);
  });
});
