import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { createContentStore } from '../content/content';
import { addEditor, changeRole, removeEditor } from '../editors/accounts';
import { runInRequestContext } from '../http/request-context';
import { routeOf } from '../http/routes';
import { asScheduler, MAX_DETAIL, recordAudit, recordRefusedPeopleAction } from './audit';
import { type AuditEntry, listAudit, pruneAudit } from './trail';

// Every test here runs on the run's engine (FOLIO_TEST_ENGINE): SQLite or PostgreSQL.
let db: Awaited<ReturnType<typeof openTestDatabase>>;

beforeEach(async () => {
  db = await openTestDatabase();
});

afterEach(async () => {
  await db.dispose();
});

async function all(): Promise<AuditEntry[]> {
  return (await listAudit(db.query, {}, { limit: 1000 })).entries;
}

/** Runs `work` as a request from `address` would (the front door's context). */
function fromRequest<T>(address: string, work: () => Promise<T>): Promise<T> {
  const url = new URL('http://folio.test/preview');
  return runInRequestContext(
    {
      request: new Request(url),
      url,
      route: routeOf(url.pathname),
      https: false,
      clientAddress: address,
      origin: url.origin,
    },
    work,
  );
}

describe('recordAudit', () => {
  test('writes inside the transaction: a change rolled back leaves no entry', async () => {
    await db.transaction((q) => recordAudit(q, { action: 'settings.changed' }));
    await expect(
      db.transaction(async (q) => {
        await recordAudit(q, { action: 'media.deleted' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await all()).map((entry) => entry.action)).toEqual(['settings.changed']);
  });

  test('the address: the request’s client, the scheduler’s rounds, else the CLI', async () => {
    await fromRequest('198.51.100.7', () =>
      db.transaction((q) => recordAudit(q, { action: 'sign-out' })),
    );
    await asScheduler(() => db.transaction((q) => recordAudit(q, { action: 'page.published' })));
    await db.transaction((q) => recordAudit(q, { action: 'editor.added' }));
    expect((await all()).map((entry) => [entry.action, entry.address])).toEqual([
      ['editor.added', 'cli'],
      ['page.published', 'scheduler'],
      ['sign-out', '198.51.100.7'],
    ]);
  });

  test('an actor named by email gets their id; the id and email stay after removal', async () => {
    await addEditor(db, 'owner@example.com', 'a long enough password');
    const kept = await addEditor(db, 'writer@example.com', 'a long enough password', {
      role: 'author',
    });
    await db.transaction((q) =>
      recordAudit(q, { action: 'page.published', actor: { email: 'writer@example.com' } }),
    );
    // A typed email (a failed sign-in) names no account, even one that exists.
    await db.transaction((q) =>
      recordAudit(q, {
        action: 'sign-in.failed',
        actor: { id: null, email: 'writer@example.com' },
      }),
    );
    await removeEditor(db, 'writer@example.com');
    const [removed, failed, published] = await all();
    expect(removed).toMatchObject({ action: 'editor.removed', actorId: null });
    expect(removed?.detail).toMatchObject({ person: 'writer@example.com' });
    expect(failed).toMatchObject({ actorId: null, actorEmail: 'writer@example.com' });
    expect(published).toMatchObject({ actorId: kept.id, actorEmail: 'writer@example.com' });
  });

  test('a role change is one entry with from and to, in the change’s commit', async () => {
    await addEditor(db, 'owner@example.com', 'a long enough password');
    await addEditor(db, 'ed@example.com', 'a long enough password', { role: 'editor' });
    await changeRole(db, 'ed@example.com', 'author');
    // Nothing changed: nothing recorded.
    await changeRole(db, 'ed@example.com', 'author');
    const roles = (await all()).filter((entry) => entry.action === 'editor.role_changed');
    expect(roles.map((entry) => entry.detail)).toEqual([
      { person: 'ed@example.com', from: 'editor', to: 'author', previousOwner: null },
    ]);
  });

  test('a detail too large is cut to a note, never stored whole', async () => {
    await db.transaction((q) =>
      recordAudit(q, { action: 'settings.changed', detail: { text: 'x'.repeat(MAX_DETAIL) } }),
    );
    expect((await all())[0]?.detail).toEqual({ truncated: true });
  });

  test('content events are copied by the change that writes them (publish, with its editor)', async () => {
    await addEditor(db, 'owner@example.com', 'a long enough password');
    const store = createContentStore(db);
    await store.putPage({ slug: 'hello', title: 'Hello', summary: '', body: 'Hi.' });
    await store.publish('hello', { editor: 'owner@example.com' });
    const published = (await all()).filter((entry) => entry.action === 'page.published');
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ slug: 'hello', actorEmail: 'owner@example.com' });
    expect(published[0]?.actorId).toBeNumber();
  });
});

describe('recordRefusedPeopleAction', () => {
  test('a People refusal (yourself, the Owner, a stale screen) is one entry, on its own', async () => {
    const owner = await addEditor(db, 'owner@example.com', 'a long enough password');
    await recordRefusedPeopleAction(db, { id: owner.id, email: owner.email }, 'people.remove', {
      person: 'owner@example.com',
      reason: 'yourself',
    });
    await recordRefusedPeopleAction(db, null, 'invitation.accept', { reason: 'withdrawn' });
    const refused = (await all()).filter((entry) => entry.action === 'action.refused');
    expect(refused.map((entry) => [entry.actorEmail, entry.detail])).toEqual([
      [null, { asked: 'invitation.accept', reason: 'withdrawn' }],
      [
        'owner@example.com',
        { asked: 'people.remove', person: 'owner@example.com', reason: 'yourself' },
      ],
    ]);
  });
});

describe('listAudit', () => {
  beforeEach(async () => {
    await addEditor(db, 'a@example.com', 'a long enough password');
    await addEditor(db, 'b@example.com', 'a long enough password');
    const days = ['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01'];
    await db.transaction(async (q) => {
      for (const [index, day] of days.entries())
        for (const who of ['a@example.com', 'b@example.com'])
          await recordAudit(q, {
            action: index % 2 === 0 ? 'page.published' : 'media.uploaded',
            actor: { email: who },
            slug: index % 2 === 0 ? `page-${index}` : null,
            at: `${day}T10:00:00.000Z`,
          });
    });
  });

  test('newest first, a page at a time by keyset, to the end', async () => {
    const seen: number[] = [];
    let before: number | undefined;
    for (;;) {
      const { entries, next } = await listAudit(db.query, {}, { before, limit: 3 });
      seen.push(...entries.map((entry) => entry.id));
      if (next === null) break;
      before = next;
    }
    expect(seen).toEqual([...seen].sort((x, y) => y - x));
    expect(seen).toHaveLength(8 + 2); // two editors added by the CLI
  });

  test('filters: who, what, page, since, and all together', async () => {
    const ids = async (filters: Parameters<typeof listAudit>[1]) =>
      (await listAudit(db.query, filters)).entries.length;
    expect(await ids({ who: 'A@Example.com' })).toBe(4);
    expect(await ids({ what: 'media.uploaded' })).toBe(4);
    expect(await ids({ page: 'page-2' })).toBe(2);
    expect(await ids({ since: '2026-03-01T00:00:00.000Z', what: 'page.published' })).toBe(2);
    expect(await ids({ since: '2026-03-01T00:00:00.000Z', who: 'b@example.com' })).toBe(2);
    expect(await ids({ since: '2030-01-01T00:00:00.000Z' })).toBe(0);
    expect(
      await ids({
        who: 'a@example.com',
        what: 'page.published',
        page: 'page-0',
        since: '2025-12-31',
      }),
    ).toBe(1);
  });

  test('oldest first after an id (the CLI’s order)', async () => {
    const { entries } = await listAudit(db.query, {}, { after: 0, limit: 100 });
    expect(entries.map((entry) => entry.id)).toEqual(
      [...entries.map((entry) => entry.id)].sort((x, y) => x - y),
    );
  });
});

describe('pruneAudit', () => {
  test('deletes what is past retention, oldest first, a bounded batch at a time', async () => {
    const now = new Date('2026-06-01T00:00:00.000Z');
    await db.transaction(async (q) => {
      for (let day = 0; day < 30; day += 1)
        await recordAudit(q, {
          action: 'sign-in',
          at: new Date(now.getTime() - (day + 1) * 86_400_000 + 1000).toISOString(),
        });
    });
    // 10 days kept (days 1..10 ago), 20 older; 3 batches of 4 delete 12 this round.
    expect(await pruneAudit(db.query, { retentionDays: 10, now, batch: 4, batches: 3 })).toBe(12);
    expect(await pruneAudit(db.query, { retentionDays: 10, now, batch: 4, batches: 3 })).toBe(8);
    expect(await pruneAudit(db.query, { retentionDays: 10, now, batch: 4, batches: 3 })).toBe(0);
    const left = await all();
    expect(left).toHaveLength(10);
    expect(left.every((entry) => Date.parse(entry.at) > now.getTime() - 10 * 86_400_000)).toBe(
      true,
    );
  });
});
