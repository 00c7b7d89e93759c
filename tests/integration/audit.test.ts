// The audit trail (issue 28, docs/decisions/0041) through the server as the README starts it,
// behind one trusted proxy (TRUST_PROXY=1) so each request says its own client address: each
// change made through the no-JavaScript forms leaves exactly one entry, with the right person
// and address; a refused sign-in leaves one with the email tried; a refused action leaves one
// 'action.refused' entry and no other; the screen refuses a Contributor (403); the CLI prints
// the trail; the scheduler's rounds write as `scheduler` and delete what is past retention.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { addEditor } from '../../src/lib/editors/accounts';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, runFolioCli, startFolio, withStore } from '../harness';

const PASSWORD = 'the audit passphrase';
const ADMIN = 'admin@example.com';
const WRITER = 'writer@example.com';
/** The client address each test's requests come from (X-Forwarded-For, one proxy trusted). */
const from = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });

type Row = {
  id: number | string;
  action: string;
  actor_id: number | string | null;
  actor_email: string | null;
  page_id: number | string | null;
  slug: string | null;
  address: string;
  detail: string;
};

let folio: RunningFolio;
let adminId = 0;
let writerId = 0;
let adminCookie = '';

beforeAll(async () => {
  folio = await startFolio({
    env: { TRUST_PROXY: '1', SCHEDULE_CHECK_SECONDS: '0.5', AUDIT_RETENTION_DAYS: '30' },
  });
  const db = await folio.database();
  adminId = (await addEditor(db, ADMIN, PASSWORD)).id;
  writerId = (await addEditor(db, WRITER, PASSWORD, { role: 'contributor' })).id;
  adminCookie = (await signInWithForm(folio.url, ADMIN, PASSWORD, { headers: from(1) })).cookie;
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

async function lastId(): Promise<number> {
  const [row] = await (await folio.database()).query<{ id: number | string | null }>`
    SELECT MAX(id) AS id FROM audit_entries`;
  return Number(row?.id ?? 0);
}

/** The entries written while `work` ran (nothing else writes to this server meanwhile). */
async function entriesOf(work: () => Promise<unknown>): Promise<Row[]> {
  const mark = await lastId();
  await work();
  return (await folio.database()).query<Row>`
    SELECT id, action, actor_id, actor_email, page_id, slug, address, detail
    FROM audit_entries WHERE id > ${mark} ORDER BY id`;
}

const page = (path: string, cookie = adminCookie) =>
  fetch(`${folio.url}${path}`, { headers: { cookie, ...from(1) } });

describe('each change leaves one entry: who, what, which page, from where', () => {
  test('signing in, and a refused sign-in (the email tried, never the password)', async () => {
    const ok = await entriesOf(() =>
      signInWithForm(folio.url, ADMIN, PASSWORD, { headers: from(2) }),
    );
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({ action: 'sign-in', actor_email: ADMIN, address: '203.0.113.2' });
    expect(Number(ok[0]?.actor_id)).toBe(adminId);

    const refused = await entriesOf(async () => {
      const { response } = await signInWithForm(folio.url, ADMIN, 'not the passphrase', {
        headers: from(3),
      });
      expect(response.status).toBe(401);
    });
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      action: 'sign-in.failed',
      actor_id: null,
      actor_email: ADMIN,
      address: '203.0.113.3',
    });
    expect(JSON.parse(refused[0]?.detail ?? '{}')).toEqual({ reason: 'mismatch' });
    expect(JSON.stringify(refused)).not.toContain('not the passphrase');
  }, 60_000);

  test('making a share link', async () => {
    const form = await formWithButton(
      await (await page('/preview/upcoming-feature')).text(),
      'Create share link',
    );
    const entries = await entriesOf(async () => {
      const response = await submitForm(`${folio.url}/preview/upcoming-feature`, form, {
        cookie: adminCookie,
        set: { ttl: '1h' },
        headers: from(6),
      });
      expect(response.status).toBeLessThan(400);
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'share-link.created',
      actor_email: ADMIN,
      slug: 'upcoming-feature',
      address: '203.0.113.6',
    });
  }, 60_000);

  test('publishing from the editor', async () => {
    const form = await formWithButton(
      await (await page('/preview/upcoming-feature?edit')).text(),
      'Save draft',
    );
    const entries = await entriesOf(async () => {
      const response = await submitForm(`${folio.url}/preview/upcoming-feature?edit`, form, {
        cookie: adminCookie,
        set: { intent: 'publish' },
        headers: from(4),
      });
      expect(response.status).toBe(303);
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'page.published',
      actor_email: ADMIN,
      slug: 'upcoming-feature',
      address: '203.0.113.4',
    });
    expect(Number(entries[0]?.actor_id)).toBe(adminId);
    expect(entries[0]?.page_id).not.toBeNull();
  }, 60_000);

  test('changing the site settings', async () => {
    const form = await formWithButton(
      await (await page('/preview?settings')).text(),
      'Save settings',
    );
    const entries = await entriesOf(async () => {
      const response = await submitForm(`${folio.url}/preview?settings`, form, {
        cookie: adminCookie,
        set: { tagline: 'Audited tagline' },
        headers: from(5),
      });
      expect(response.status).toBe(303);
    });
    expect(entries.map((entry) => [entry.action, entry.actor_email, entry.address])).toEqual([
      ['settings.changed', ADMIN, '203.0.113.5'],
    ]);
  }, 60_000);

  test('uploading an image', async () => {
    const png = new File(
      [
        await sharp({
          create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } },
        })
          .png()
          .toBuffer(),
      ],
      'dot.png',
      { type: 'image/png' },
    );
    const form = await formWithButton(await (await page('/preview?media')).text(), 'Upload');
    const entries = await entriesOf(async () => {
      const response = await submitForm(`${folio.url}/preview?media`, form, {
        cookie: adminCookie,
        set: { file: png, alt: 'A dot' },
        button: 'Upload',
        headers: from(7),
      });
      expect(response.status).toBeLessThan(400);
    });
    expect(entries.map((entry) => [entry.action, entry.actor_email, entry.address])).toEqual([
      ['media.uploaded', ADMIN, '203.0.113.7'],
    ]);
    expect(JSON.parse(entries[0]?.detail ?? '{}')).toMatchObject({ filename: 'dot.png' });
  }, 60_000);

  test('a refused action (a Contributor’s forged publish) leaves one “refused” entry and changes nothing', async () => {
    const writer = (await signInWithForm(folio.url, WRITER, PASSWORD, { headers: from(8) })).cookie;
    // The form as an Administrator's screen has it, posted with the Contributor's session.
    const form = await formWithButton(
      await (await page('/preview/about?edit')).text(),
      'Save draft',
    );
    const entries = await entriesOf(async () => {
      const response = await submitForm(`${folio.url}/preview/about?edit`, form, {
        cookie: writer,
        set: { intent: 'publish', body: 'Forged.' },
        headers: from(8),
      });
      expect(response.status).toBe(403);
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'action.refused',
      actor_email: WRITER,
      slug: 'about',
      address: '203.0.113.8',
    });
    expect(entries[0]?.page_id).not.toBeNull();
    expect(Number(entries[0]?.actor_id)).toBe(writerId);
    expect(JSON.parse(entries[0]?.detail ?? '{}')).toMatchObject({ asked: 'page.edit' });
    expect(await (await fetch(`${folio.url}/about`)).text()).not.toContain('Forged.');
  }, 60_000);

  test('signing out', async () => {
    const { cookie } = await signInWithForm(folio.url, ADMIN, PASSWORD, { headers: from(9) });
    const form = await formWithButton(await (await page('/preview', cookie)).text(), 'Sign out');
    const entries = await entriesOf(() =>
      submitForm(`${folio.url}/preview`, form, { cookie, button: 'Sign out', headers: from(9) }),
    );
    expect(entries.map((entry) => [entry.action, entry.actor_email, entry.address])).toEqual([
      ['sign-out', ADMIN, '203.0.113.9'],
    ]);
  }, 60_000);
});

describe('the screen', () => {
  test('lists the trail, newest first, for an Administrator; filters; refuses bad filters in words', async () => {
    const response = await page('/preview?audit');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const html = await response.text();
    expect(html).toContain('<h1>Audit trail</h1>');
    expect(html).toContain('href="/preview?audit"');
    const table = html.slice(html.indexOf('<table'));
    const signIn = table.indexOf('>Sign-in refused<');
    const published = table.indexOf('>Published<');
    expect(signIn).toBeGreaterThan(0);
    expect(published).toBeGreaterThan(0);
    // Newest first: the publish came after the refused sign-in.
    expect(published).toBeLessThan(signIn);
    // Nothing on the screen writes anything: its one form (the bar's sign-out aside) is a GET.
    const screen = html.slice(html.indexOf('<h1>Audit trail</h1>'));
    expect(screen.match(/<form[^>]*>/g)).toHaveLength(1);
    expect(screen.match(/<form[^>]*>/g)?.[0]).toContain('method="get"');

    const filtered = await (await page('/preview?audit&what=sign-in.failed')).text();
    const rows = filtered.slice(filtered.indexOf('<table'));
    expect(rows).toContain('>Sign-in refused<');
    expect(rows).not.toContain('>Published<');

    const bad = await page('/preview?audit&since=yesterday-ish');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Since takes a date such as 2026-01-31');
  }, 60_000);

  test('refuses a Contributor with a 403 in words, and their bar has no link to it', async () => {
    const writer = (await signInWithForm(folio.url, WRITER, PASSWORD, { headers: from(10) }))
      .cookie;
    const response = await page('/preview?audit', writer);
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(html).toContain('You cannot read the audit trail: Contributors may not.');
    expect(html).not.toContain('Sign-in refused');
    const dashboard = await (await page('/preview', writer)).text();
    expect(dashboard).not.toContain('href="/preview?audit"');
  }, 60_000);
});

describe('the CLI and the scheduler', () => {
  test('`folio audit --json` prints JSON lines, oldest first; `--since` bounds it; a bad one is refused', async () => {
    const all = await runFolioCli(['audit', '--json'], { databaseUrl: folio.databaseUrl });
    expect(all.code).toBe(0);
    const lines = all.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    const ids = lines.map((entry) => entry.id as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(
      lines.some((entry) => entry.action === 'sign-in' && entry.address === '203.0.113.1'),
    ).toBe(true);
    const text = await runFolioCli(['audit', '--since', '1d'], { databaseUrl: folio.databaseUrl });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Signed in');
    const bad = await runFolioCli(['audit', '--since', 'soon'], { databaseUrl: folio.databaseUrl });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since: Since takes a date');
  }, 60_000);

  test('`folio editor role` is recorded from `cli`, with from and to', async () => {
    const entries = await entriesOf(() =>
      runFolioCli(['editor', 'role', WRITER, 'author'], { databaseUrl: folio.databaseUrl }),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'editor.role_changed',
      actor_id: null,
      address: 'cli',
    });
    expect(JSON.parse(entries[0]?.detail ?? '{}')).toMatchObject({
      person: WRITER,
      from: 'contributor',
      to: 'author',
    });
  }, 60_000);

  test('a scheduled publish is recorded from `scheduler`, on behalf of whoever scheduled it', async () => {
    const db = await folio.database();
    await withStore(folio, (store) =>
      store.putPage({ slug: 'scheduled-audit', title: 'Due', summary: '', body: 'Due now.' }),
    );
    const mark = await lastId();
    await db.query`UPDATE pages SET publish_at = ${new Date(Date.now() - 1000).toISOString()},
                   scheduled_by = ${ADMIN} WHERE slug = 'scheduled-audit'`;
    let done: Row | undefined;
    for (let tries = 0; tries < 100 && !done; tries += 1) {
      await Bun.sleep(100);
      [done] = await db.query<Row>`
        SELECT id, action, actor_id, actor_email, page_id, slug, address, detail FROM audit_entries
        WHERE id > ${mark} AND action LIKE 'page.scheduled_publish_%'`;
    }
    expect(done).toMatchObject({
      action: 'page.scheduled_publish_done',
      slug: 'scheduled-audit',
      actor_email: ADMIN,
      address: 'scheduler',
    });
    expect(Number(done?.actor_id)).toBe(adminId);
  }, 60_000);

  test('entries past AUDIT_RETENTION_DAYS are deleted by the scheduler’s rounds; newer ones stay', async () => {
    const db = await folio.database();
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const recent = new Date(Date.now() - 20 * 86_400_000).toISOString();
    await db.query`INSERT INTO audit_entries (at, action, address) VALUES (${old}, 'sign-in', 'old')`;
    await db.query`INSERT INTO audit_entries (at, action, address) VALUES (${recent}, 'sign-in', 'recent')`;
    let left: string[] = [];
    for (let tries = 0; tries < 100; tries += 1) {
      await Bun.sleep(100);
      left = (
        await db.query<{ address: string }>`
          SELECT address FROM audit_entries WHERE address IN ('old', 'recent')`
      ).map((row) => row.address);
      if (!left.includes('old')) break;
    }
    expect(left).toEqual(['recent']);
  }, 60_000);
});
