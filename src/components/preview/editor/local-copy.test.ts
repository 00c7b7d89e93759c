import { describe, expect, test } from 'bun:test';
import { documentIdentity } from '../../../lib/coedit/identity';
import type { EditorFormValues } from '../../../lib/editor/forms';
import {
  backupCovered,
  COPY_MAX_AGE_MS,
  copiesToDrop,
  copyName,
  parseCopyName,
} from './local-copy';

const OLD = documentIdentity(42, '2026-11-01T10:00:00.000Z');
const NEW = documentIdentity(42, '2026-11-27T10:00:00.000Z');
const OTHER_PAGE = documentIdentity(43, '2026-11-01T10:00:00.000Z');

describe('the browser’s copies of documents', () => {
  test('named by the document and the person, read back; the e-mail is not in the name', () => {
    const name = copyName(NEW, 'Ann@Example.com ');
    expect(name).toBe(copyName(NEW, 'ann@example.com'));
    expect(name).not.toContain('example');
    expect(name).not.toBe(copyName(NEW, 'bob@example.com'));
    expect(name).not.toBe(copyName(OLD, 'ann@example.com'));
    expect(parseCopyName(name)).toEqual({
      identity: NEW,
      pageId: 42,
      person: expect.stringMatching(/^[0-9a-f]{8}$/),
    });
    for (const bad of [
      'folio-coedit:',
      'other-db',
      `folio-coedit:${NEW}`,
      `folio-coedit:x:abcdef12`,
    ])
      expect(parseCopyName(bad)).toBeNull();
  });

  test('opening a document drops the same page’s copies of other documents, anyone’s', () => {
    const names = [
      copyName(OLD, 'ann@example.com'),
      copyName(OLD, 'bob@example.com'),
      copyName(NEW, 'ann@example.com'),
      copyName(NEW, 'bob@example.com'),
      copyName(OTHER_PAGE, 'ann@example.com'),
      'not-ours',
    ];
    expect(copiesToDrop(names, NEW, {}, Date.now()).sort()).toEqual(
      [copyName(OLD, 'ann@example.com'), copyName(OLD, 'bob@example.com')].sort(),
    );
  });

  test('and any copy not changed for the age cap, on any page', () => {
    const now = Date.parse('2026-11-27T10:00:00.000Z');
    const old = copyName(OTHER_PAGE, 'ann@example.com');
    const fresh = copyName(NEW, 'ann@example.com');
    const changed = {
      [old]: new Date(now - COPY_MAX_AGE_MS - 1).toISOString(),
      [fresh]: new Date(now - COPY_MAX_AGE_MS + 60_000).toISOString(),
    };
    expect(copiesToDrop([old, fresh], NEW, changed, now)).toEqual([old]);
    // Not listed: its age is not known; its page's next visit decides.
    expect(copiesToDrop([old, fresh], NEW, {}, now)).toEqual([]);
  });
});

describe('the form’s backup, once a copy is merged', () => {
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
  const rendered = values('Start.');

  test('covered when every line it added is on screen, with the others’ lines too', () => {
    const backup = values('Start.\n\nMine, offline.', { version: '2' });
    expect(backupCovered(backup, rendered, values('Start.\n\nTheirs.\n\nMine, offline.'))).toBe(
      true,
    );
  });

  test('offered still when a line of it is not on screen (another document’s copy)', () => {
    const backup = values('Start.\n\nMine, offline.');
    expect(backupCovered(backup, rendered, values('Start.'))).toBe(false);
    expect(backupCovered(backup, rendered, values('Start.\n\nMine, offl'))).toBe(false);
  });

  test('offered still when another field of it is neither the page’s nor on screen', () => {
    const now = values('Start.\n\nMine.');
    expect(backupCovered(values('Start.\n\nMine.', { title: 'Retitled' }), rendered, now)).toBe(
      false,
    );
    expect(backupCovered(values('Start.\n\nMine.', { topics: 'news' }), rendered, now)).toBe(false);
    expect(
      backupCovered(values('Start.\n\nMine.', { title: 'Retitled' }), rendered, {
        ...now,
        title: 'Retitled',
      }),
    ).toBe(true);
  });
});
