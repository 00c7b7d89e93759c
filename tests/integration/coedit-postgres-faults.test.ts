// Co-editing while PostgreSQL stops and comes back (docs/decisions/0050), on a throw-away
// cluster of the test's own (tests/postgres-cluster.ts), two instances, an editor on each: while
// it is down nothing is acknowledged (an update that cannot be stored closes its connection
// with 1013, try again) and the editors keep typing offline; once it is back they reconnect,
// agree, the draft is their text, and everything acknowledged before, during and after is in
// the database. Nothing of it is an unexpected error. PostgreSQL runs only.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SQL } from 'bun';
import * as Y from 'yjs';
import { applyStored } from '../../src/lib/coedit/storage';
import { createContentStore } from '../../src/lib/content/content';
import { type Database, openDatabase } from '../../src/lib/data/db';
import { addEditor, createSession } from '../../src/lib/editors/accounts';
import { SESSION_COOKIE } from '../../src/lib/http/routes';
import { CoeditClient, missingFrom } from '../coedit-client';
import { TEST_ENGINE, type ThrowAwayDatabase } from '../databases';
import { type RunningFolio, startTwoFolios, waitFor } from '../harness';
import { type Cluster, canMakeCluster, startCluster } from '../postgres-cluster';

const RUN = TEST_ENGINE === 'postgres';

describe.if(RUN && canMakeCluster())('co-editing while PostgreSQL stops and comes back', () => {
  let cluster: Cluster;
  let servers: RunningFolio[];
  let db: Database;
  let cookie = '';

  beforeAll(async () => {
    cluster = await startCluster();
    const admin = new SQL(cluster.adminUrl, { max: 1 });
    await admin.unsafe('CREATE DATABASE folio');
    await admin.close();
    const database: ThrowAwayDatabase = {
      url: cluster.urlOf('folio'),
      engine: 'postgres',
      file: null,
      drop: async () => undefined,
    };
    servers = await startTwoFolios(database);
    db = await openDatabase(database.url, { migrate: false });
    const editor = await addEditor(db, 'outage@example.com', 'the outage passphrase');
    cookie = `${SESSION_COOKIE}=${(await createSession(db.query, editor.id)).id}`;
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers?.map((server) => server.stop()) ?? []);
    await db?.close();
    cluster?.destroy();
  });

  test('nothing acknowledged is lost, and the editors agree after', async () => {
    const store = createContentStore(db);
    await store.putPage({ slug: 'outage', title: 'Outage', summary: '', body: 'Before.\n' });
    const pageId = (await store.getPage('outage', { draft: true }))?.id ?? 0;
    const clients = servers.map((_, i) => new CoeditClient(`e${i}`));
    const connect = (client: CoeditClient, i: number) => {
      const server = servers[i] as RunningFolio;
      return client.connect(`${server.url.replace('http:', 'ws:')}/preview/outage?live`, {
        cookie,
        origin: server.url,
      });
    };
    for (const [i, client] of clients.entries()) await connect(client, i);
    for (const [i, client] of clients.entries()) client.text.insert(0, `[up ${i}]`);
    await waitFor(() => (clients.every((c) => c.allAcknowledged) ? true : undefined), {
      what: 'the first edits to be acknowledged',
    });

    cluster.stop();
    try {
      // Typed while the database is down: not acknowledged; the connection is told to retry.
      for (const [i, client] of clients.entries()) client.text.insert(0, `[down ${i}]`);
      await waitFor(() => (clients.every((c) => !c.connected) ? true : undefined), {
        timeoutMs: 20_000,
        what: 'the connections to be closed while the database is down',
      });
      for (const client of clients) expect(client.lastClose?.code).toBe(1013);
      // And typed offline.
      for (const [i, client] of clients.entries()) client.text.insert(0, `[offline ${i}]`);
    } finally {
      cluster.start();
    }

    for (const [i, client] of clients.entries())
      await waitFor(
        () =>
          connect(client, i).then(
            () => true,
            () => undefined,
          ),
        { timeoutMs: 30_000, what: `${client.name} to reconnect` },
      );
    for (const [i, client] of clients.entries()) client.text.insert(0, `[back ${i}]`);
    await waitFor(
      () => {
        const texts = new Set(clients.map((c) => c.text.toString()));
        return texts.size === 1 && clients.every((c) => c.allAcknowledged) ? true : undefined;
      },
      { timeoutMs: 30_000, what: 'the editors to agree' },
    );
    const text = (clients[0] as CoeditClient).text.toString();
    for (const mark of ['up', 'down', 'offline', 'back'])
      for (const i of [0, 1]) expect(text).toContain(`[${mark} ${i}]`);
    await waitFor(
      async () =>
        (await store.getPage('outage', { draft: true }))?.bodyMarkdown === text ? true : undefined,
      { timeoutMs: 20_000, what: 'the draft to be the editors’ text' },
    );
    const stored = new Y.Doc();
    await applyStored(db.query, pageId, stored, 0, null);
    expect(
      missingFrom(
        stored,
        clients.flatMap((c) => c.acknowledged),
      ),
    ).toEqual([]);
    for (const client of clients) client.disconnect();
    for (const server of servers) expect(server.unexpectedErrors()).toEqual([]);
  }, 120_000);
});
