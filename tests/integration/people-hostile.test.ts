// Issue 28's hostile pass on People (fixd: findings 3, 9, 10, 12, 14), against the server as the
// README starts it, through the forms a browser without JavaScript posts:
// 3. the site is never handed to a suspended person (not offered; refused on the web and by the
//    CLI); 9. Remove refuses a stale screen like a role change; 10. refusals name who may, in
//    plain words; 12. an invitation is not accepted over someone's session; 14. an invitation
//    that can no longer be accepted is shown as not usable, and not counted as invited.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Database } from '../../src/lib/data/db';
import { addEditor } from '../../src/lib/editors/accounts';
import { formsIn, formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, runFolioCli, startFolio } from '../harness';

const PASSWORD = 'a long enough passphrase';
const plain = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
/** Whether the page says `text` (a page is never printed whole: only its alerts, on failure). */
function expectText(html: string, text: string): void {
  if (plain(html).includes(text)) return;
  const alerts = [...html.matchAll(/role="alert"[^>]*>([^<]*)</g)].map((m) => m[1]);
  throw new Error(`the page does not say "${text}"; its alerts: ${JSON.stringify(alerts)}`);
}

describe('people: the hostile pass', () => {
  let folio: RunningFolio;
  let db: Database;
  const ids: Record<string, number> = {};
  const cookies: Record<string, string> = {};
  const peopleUrl = () => `${folio.url}/preview?people`;
  const peoplePage = async (who = 'admin') =>
    (
      await fetch(peopleUrl(), { headers: { cookie: cookies[who] ?? '' }, redirect: 'manual' })
    ).text();
  const person = async (email: string) => {
    const [row] = await db.query<{ role: string; suspended_at: string | null; version: number }>`
      SELECT role, suspended_at, version FROM editors WHERE email = ${email}`;
    return row ? { ...row, version: Number(row.version) } : null;
  };
  const rowForm = async (html: string, button: string, id: number, name = 'person') => {
    const found = (await formsIn(html)).find(
      (form) =>
        form.buttons.some((each) => each.text.trim() === button) &&
        form.fields.some(([field, value]) => field === name && value === String(id)),
    );
    if (!found) throw new Error(`no "${button}" form for ${name} ${id}`);
    return found;
  };
  const addPerson = async (name: string, role?: 'contributor' | 'author' | 'editor') => {
    const made = await addEditor(db, `${name}@example.com`, PASSWORD, role ? { role } : {});
    ids[name] = made.id;
    const { cookie } = await signInWithForm(folio.url, made.email, PASSWORD);
    cookies[name] = cookie;
    return made;
  };
  const invite = async (who: string, email: string) => {
    const answer = await submitForm(
      peopleUrl(),
      await formWithButton(await peoplePage(who), 'Invite'),
      { set: { email, role: 'author' }, cookie: cookies[who] },
    );
    const html = await answer.text();
    return { answer, html, token: /\/preview\?invite=([A-Za-z0-9_-]{43})/.exec(html)?.[1] };
  };

  beforeAll(async () => {
    folio = await startFolio();
    db = await folio.database();
    expect((await addPerson('owner')).role).toBe('owner');
    expect((await addPerson('admin')).role).toBe('administrator');
    expect((await addPerson('admin2')).role).toBe('administrator');
    await addPerson('heir', 'editor');
    await addPerson('target', 'author');
    await addPerson('editor', 'editor');
  }, 300_000);
  afterAll(() => folio?.stop(), 30_000);

  test('the site is not handed to a suspended person: not offered, refused on the web and by the CLI', async () => {
    await db.query`UPDATE editors SET suspended_at = ${new Date().toISOString()}, version = version + 1
                   WHERE id = ${ids.heir as number}`;
    const html = await peoplePage('owner');
    const select = /aria-label="Role of heir@example\.com"[^>]*>([\s\S]*?)<\/select>/.exec(html);
    expect(select?.[1]).toBeDefined();
    expect(select?.[1]?.includes('value="owner"')).toBe(false);
    // An active person is offered it.
    const active = /aria-label="Role of target@example\.com"[^>]*>([\s\S]*?)<\/select>/.exec(html);
    expect(active?.[1]?.includes('value="owner"')).toBe(true);

    const forged = await submitForm(
      peopleUrl(),
      await rowForm(html, 'Change role', ids.heir as number),
      { set: { role: 'owner' }, cookie: cookies.owner, button: 'Change role' },
    );
    expect(forged.status).toBe(409);
    expectText(await forged.text(), 'A suspended person cannot be made the Owner');
    expect((await person('heir@example.com'))?.role).toBe('editor');
    expect((await person('owner@example.com'))?.role).toBe('owner');

    const cli = await runFolioCli(['editor', 'role', 'heir@example.com', 'owner'], {
      databaseUrl: folio.databaseUrl,
    });
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain('A suspended person cannot be made the Owner');
    expect((await person('heir@example.com'))?.role).toBe('editor');
    expect((await person('owner@example.com'))?.role).toBe('owner');
  }, 90_000);

  test('Remove on a stale screen is refused (409) and removes nobody', async () => {
    const stale = await peoplePage('admin');
    // Another Administrator changes the person meanwhile.
    const change = await submitForm(
      peopleUrl(),
      await rowForm(await peoplePage('admin2'), 'Change role', ids.target as number),
      { set: { role: 'editor' }, cookie: cookies.admin2, button: 'Change role' },
    );
    expect(change.status).toBe(303);
    const removed = await submitForm(
      peopleUrl(),
      await rowForm(stale, 'Remove target@example.com', ids.target as number),
      { cookie: cookies.admin, button: 'Remove target@example.com' },
    );
    expect(removed.status).toBe(409);
    expectText(await removed.text(), 'Someone changed this person since this screen was shown');
    expect((await person('target@example.com'))?.role).toBe('editor');
    // In the audit trail, by whom and why (issue 28: every refused attempt is recorded).
    const [entry] = await (await folio.database()).query<{ actor_email: string; detail: string }>`
      SELECT actor_email, detail FROM audit_entries WHERE action = 'action.refused'
      ORDER BY id DESC LIMIT 1`;
    expect(entry?.actor_email).toBe('admin@example.com');
    expect(JSON.parse(entry?.detail ?? '{}')).toMatchObject({
      asked: 'people.remove',
      reason: 'stale',
    });
    // A form without its version is not one Folio made.
    const form = await rowForm(
      await peoplePage('admin'),
      'Remove target@example.com',
      ids.target as number,
    );
    const unversioned = await submitForm(
      peopleUrl(),
      { ...form, fields: form.fields.filter(([name]) => name !== 'version') },
      { cookie: cookies.admin, button: 'Remove target@example.com' },
    );
    expect(unversioned.status).toBe(400);
    expect(await person('target@example.com')).not.toBeNull();
  }, 60_000);

  test('refusals say who may, in plain words', async () => {
    const html = await peoplePage('admin');
    // Removing oneself (a forged person field) and restoring the Owner: said without typos.
    const self = await submitForm(
      peopleUrl(),
      await rowForm(html, 'Remove target@example.com', ids.target as number),
      {
        set: {
          person: String(ids.admin),
          version: String((await person('admin@example.com'))?.version),
        },
        cookie: cookies.admin,
        button: 'Remove target@example.com',
      },
    );
    expect(self.status).toBe(409);
    expectText(await self.text(), 'You cannot remove yourself. Ask another Administrator.');
    const suspend = (await formsIn(html)).find(
      (form) =>
        form.fields.some(([name, value]) => name === 'person' && value === String(ids.target)) &&
        form.fields.some(([name]) => name === 'intent'),
    );
    if (!suspend) throw new Error('no suspend form');
    const owner = await submitForm(peopleUrl(), suspend, {
      set: {
        person: String(ids.owner),
        version: String((await person('owner@example.com'))?.version),
        intent: 'restore',
      },
      cookie: cookies.admin,
    });
    expect(owner.status).toBe(409);
    expectText(await owner.text(), 'The Owner cannot be restored.');
    // An Editor inviting (the form forged with their own session): sent to an Administrator.
    const byEditor = await submitForm(peopleUrl(), await formWithButton(html, 'Invite'), {
      set: { email: 'someone@example.com', role: 'author' },
      cookie: cookies.editor,
    });
    expect(byEditor.status).toBe(403);
    expectText(
      await byEditor.text(),
      'You cannot manage people: Editors may not. Ask an Administrator.',
    );
    // Not an email address: said so, the typed text kept.
    const bad = await invite('admin', 'bad<script>@x');
    expect(bad.answer.status).toBe(422);
    expectText(bad.html, 'is not an email address');
    expect(bad.html.includes('<script>@x')).toBe(false);
  }, 60_000);

  test('an invitation is not accepted over someone’s session (409); signed out, it is', async () => {
    const { token } = await invite('admin', 'joiner@example.com');
    expect(token).toBeDefined();
    const link = `${folio.url}/preview?invite=${token}`;
    const join = await formWithButton(await (await fetch(link)).text(), 'Join and sign in');
    const over = await submitForm(link, join, {
      set: { password: PASSWORD },
      cookie: cookies.editor,
    });
    expect(over.status).toBe(409);
    expectText(
      await over.text(),
      'You are signed in as editor@example.com. To accept an invitation for someone else, sign out first',
    );
    expect(await person('joiner@example.com')).toBeNull();
    // The editor's session is still theirs.
    const sessions = await fetch(`${folio.url}/preview?sessions`, {
      headers: { cookie: cookies.editor ?? '' },
    });
    expectText(await sessions.text(), 'signed in as editor@example.com');
    const signedOut = await submitForm(link, join, { set: { password: PASSWORD } });
    expect(signedOut.status).toBe(303);
    expect((await person('joiner@example.com'))?.role).toBe('author');
  }, 60_000);

  test('invitations that can no longer be accepted are shown as not usable, not as invited', async () => {
    const before = plain(await peoplePage('admin'));
    const count = Number(/, and (\d+) invited\)/.exec(before)?.[1] ?? 0);
    const { token: fromAdmin2 } = await invite('admin2', 'pending.one@example.com');
    const { token: taken } = await invite('admin', 'taken@example.com');
    expect(fromAdmin2 && taken).toBeDefined();
    const listed = plain(await peoplePage('admin'));
    expect(listed.includes(`, and ${count + 2} invited)`)).toBe(true);
    // The sender is no longer an Administrator; the other email gets an account (the CLI).
    await db.query`UPDATE editors SET role = 'editor', version = version + 1
                   WHERE id = ${ids.admin2 as number}`;
    await addEditor(db, 'taken@example.com', PASSWORD, { role: 'author' });
    const after = await peoplePage('admin');
    expectText(after, 'Not usable: its sender can no longer invite people.');
    expectText(after, 'Not usable: this email has an account now.');
    expect(plain(after).includes(`, and ${count} invited)`) || count === 0).toBe(true);
    if (count === 0) expect(plain(after).includes(' invited)')).toBe(false);
  }, 60_000);
});
