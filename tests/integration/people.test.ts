// People (issue 28) against the server as the README starts it, through the forms a browser
// without JavaScript posts: the People screen and who may see it, inviting and accepting (once),
// changing a role (a stale tab refused), suspending, removing, ending someone's sessions, one's
// own Sessions screen — and each refusal: a Contributor posting the People forms with a valid
// session and forged fields gets a 403 in words and nothing changes; the Owner stays.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import type { Database } from '../../src/lib/data/db';
import { addEditor } from '../../src/lib/editors/accounts';
import { checkPreviewLink, createPreviewLink } from '../../src/lib/share-links/share-links';
import {
  cookiesFrom,
  formsIn,
  formWithButton,
  type HtmlForm,
  signInWithForm,
  submitForm,
} from '../forms';
import { type RunningFolio, startFolio } from '../harness';

const PASSWORD = 'a long enough passphrase';
const plain = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
/** Whether the page says `text` (a page is never printed whole: only its alerts, on failure). */
const has = (html: string, text: string) => plain(html).includes(text);
function expectText(html: string, text: string): void {
  if (has(html, text)) return;
  const alerts = [...html.matchAll(/role="alert"[^>]*>([^<]*)</g)].map((m) => m[1]);
  throw new Error(`the page does not say "${text}"; its alerts: ${JSON.stringify(alerts)}`);
}

describe('people', () => {
  let folio: RunningFolio;
  let db: Database;
  const ids: Record<string, number> = {};
  const cookies: Record<string, string> = {};
  const get = (address: string, cookie = '', init: RequestInit = {}) =>
    fetch(`${folio.url}${address}`, {
      redirect: 'manual',
      ...init,
      headers: { ...(cookie ? { cookie } : {}), ...(init.headers ?? {}) },
    });
  const peopleUrl = () => `${folio.url}/preview?people`;
  const peoplePage = async (who = 'admin') => (await get('/preview?people', cookies[who])).text();
  const person = async (email: string) => {
    const [row] = await db.query<{ role: string; suspended_at: string | null; version: number }>`
      SELECT role, suspended_at, version FROM editors WHERE email = ${email}`;
    return row ? { ...row, version: Number(row.version) } : null;
  };
  /** The form of a row: its button's text, and the person (or invitation) it names. */
  const rowForm = async (html: string, button: string, id: number, name = 'person') => {
    const found = (await formsIn(html)).find(
      (form) =>
        form.buttons.some((each) => each.text.trim() === button) &&
        form.fields.some(([field, value]) => field === name && value === String(id)),
    );
    if (!found) throw new Error(`no "${button}" form for ${name} ${id}`);
    return found;
  };
  const signIn = async (email: string) => {
    const { response, cookie } = await signInWithForm(folio.url, email, PASSWORD);
    expect(response.status).toBe(303);
    return cookie;
  };
  const addPerson = async (name: string, role?: 'contributor' | 'author' | 'editor') => {
    const made = await addEditor(db, `${name}@example.com`, PASSWORD, role ? { role } : {});
    ids[name] = made.id;
    cookies[name] = await signIn(made.email);
    return made;
  };

  beforeAll(async () => {
    folio = await startFolio();
    db = await folio.database();
    expect((await addPerson('owner')).role).toBe('owner');
    expect((await addPerson('admin')).role).toBe('administrator');
    await addPerson('contributor', 'contributor');
    await addPerson('target', 'author');
  }, 60_000);
  afterAll(() => folio?.stop(), 30_000);

  test('the People screen is for Administrators and the Owner; the bar links to it only for them', async () => {
    const page = await get('/preview?people', cookies.admin);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const text of ['owner@', 'admin@', 'contributor@', 'target@', 'Administrator'])
      expectText(html, text);
    // No SMTP_URL: the screen says the link is the inviter's to send.
    expectText(html, 'Send it to them yourself (no mail server is set up: SMTP_URL)');
    const refused = await get('/preview?people', cookies.contributor);
    expect(refused.status).toBe(403);
    const words = await refused.text();
    expectText(words, 'You cannot manage people');
    expect(has(words, 'target@example.com')).toBe(false);
    const dashboard = await (await get('/preview', cookies.contributor)).text();
    expect(dashboard.includes('href="/preview?sessions"')).toBe(true);
    expect(dashboard.includes('href="/preview?people"')).toBe(false);
    const adminDashboard = await (await get('/preview', cookies.admin)).text();
    expect(adminDashboard.includes('href="/preview?people"')).toBe(true);
  });

  test('invite → the link shown once → accept signed out → signed in with that role; used twice: refused', async () => {
    const form = await formWithButton(await peoplePage(), 'Invite');
    const answer = await submitForm(peopleUrl(), form, {
      set: { email: 'New.Person@Example.com', role: 'editor' },
      cookie: cookies.admin,
    });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const token = /\/preview\?invite=([A-Za-z0-9_-]{43})/.exec(html)?.[1];
    expect(token).toBeDefined();
    // Stored hashed; listed as pending (without the link) on the screen.
    const [stored] = await db.query<{ token_hash: string }>`
      SELECT token_hash FROM invitations WHERE email = 'new.person@example.com'`;
    expect(stored?.token_hash).not.toBe(token);
    const listed = await peoplePage();
    expectText(listed, 'new.person@example.com');
    expect(listed.includes(token as string)).toBe(false);

    const link = `/preview?invite=${token}`;
    const open = await get(link);
    expect(open.status).toBe(200);
    const openHtml = await open.text();
    expectText(openHtml, 'Join as Editor');
    const join = await formWithButton(openHtml, 'Join and sign in');
    const joined = await submitForm(`${folio.url}${link}`, join, { set: { password: PASSWORD } });
    expect(joined.status).toBe(303);
    expect(joined.headers.get('location')).toMatch(/^(http:\/\/[^/]+)?\/preview$/);
    const cookie = cookiesFrom(joined);
    const sessions = await get('/preview?sessions', cookie);
    expect(sessions.status).toBe(200);
    expectText(await sessions.text(), 'signed in as new.person@example.com');
    expect((await person('new.person@example.com'))?.role).toBe('editor');

    // The same link again: refused in words, and posting its form changes nothing.
    const again = await get(link);
    expect(again.status).toBe(410);
    expectText(await again.text(), 'already been used');
    const replay = await submitForm(`${folio.url}${link}`, join, {
      set: { password: 'another passphrase here' },
    });
    expect(replay.status).toBe(410);
    expect(cookiesFrom(replay)).not.toContain('folio_session');
    expect(
      (await signInWithForm(folio.url, 'new.person@example.com', PASSWORD)).response.status,
    ).toBe(303);
    // An unknown token and an expired one.
    expect((await get(`/preview?invite=${'a'.repeat(43)}`)).status).toBe(404);
    const late = await submitForm(peopleUrl(), await formWithButton(await peoplePage(), 'Invite'), {
      set: { email: 'late@example.com', role: 'author' },
      cookie: cookies.admin,
    });
    const lateToken = /\/preview\?invite=([A-Za-z0-9_-]{43})/.exec(await late.text())?.[1];
    await db.query`UPDATE invitations SET expires_at = '2000-01-01T00:00:00.000Z'
      WHERE email = 'late@example.com'`;
    const expired = await get(`/preview?invite=${lateToken}`);
    expect(expired.status).toBe(410);
    expectText(await expired.text(), 'expired');
  });

  test('a pending invitation is withdrawn from the screen; its link is refused', async () => {
    const answer = await submitForm(
      peopleUrl(),
      await formWithButton(await peoplePage(), 'Invite'),
      { set: { email: 'withdrawn@example.com', role: 'author' }, cookie: cookies.admin },
    );
    const token = /\/preview\?invite=([A-Za-z0-9_-]{43})/.exec(await answer.text())?.[1];
    const [row] = await db.query<{ id: number }>`
      SELECT id FROM invitations WHERE email = 'withdrawn@example.com'`;
    const form = await rowForm(await peoplePage(), 'Withdraw', Number(row?.id), 'invitation');
    const withdrawn = await submitForm(peopleUrl(), form, { cookie: cookies.admin });
    expect(withdrawn.status).toBe(303);
    expect(withdrawn.headers.get('location')).toContain('notice=invitation-revoked');
    const refused = await get(`/preview?invite=${token}`);
    expect(refused.status).toBe(410);
    expectText(await refused.text(), 'withdrawn');
  });

  test('a Contributor posting every People form with forged fields gets 403 in words; nothing changes', async () => {
    const html = await peoplePage();
    const before =
      await db.query`SELECT id, email, role, suspended_at, version FROM editors ORDER BY id`;
    const [invites] = await db.query<{ n: number | string }>`SELECT COUNT(*) AS n FROM invitations`;
    const forged: [HtmlForm, Record<string, string>][] = [
      [
        await formWithButton(html, 'Invite'),
        { email: 'sneaky@example.com', role: 'administrator' },
      ],
      [await rowForm(html, 'Change role', ids.target as number), { role: 'administrator' }],
      [
        await rowForm(html, 'Change role', ids.target as number),
        { person: String(ids.contributor), role: 'administrator' },
      ],
      [await rowForm(html, 'Suspend', ids.target as number), {}],
      [await rowForm(html, `Remove target@example.com`, ids.target as number), {}],
    ];
    const ends = (await formsIn(html)).find((form) =>
      form.buttons.some((button) => button.text.trim().startsWith('End sessions')),
    );
    if (ends) forged.push([ends, {}]);
    for (const [form, set] of forged) {
      const response = await submitForm(peopleUrl(), form, { set, cookie: cookies.contributor });
      expect(response.status).toBe(403);
      expectText(await response.text(), 'You cannot manage people');
    }
    expect(
      await db.query`SELECT id, email, role, suspended_at, version FROM editors ORDER BY id`,
    ).toEqual(before);
    const [after] = await db.query<{ n: number | string }>`SELECT COUNT(*) AS n FROM invitations`;
    expect(Number(after?.n)).toBe(Number(invites?.n));
    // The contributor is still signed in (a refusal is not a sign-out).
    expect((await get('/preview?sessions', cookies.contributor)).status).toBe(200);
  });

  test('a role change from a stale tab is refused; the Owner stays; handing over is the Owner’s', async () => {
    const html = await peoplePage();
    const first = await rowForm(html, 'Change role', ids.target as number);
    const changed = await submitForm(peopleUrl(), first, {
      set: { role: 'editor' },
      cookie: cookies.admin,
    });
    expect(changed.status).toBe(303);
    expect(changed.headers.get('location')).toContain('notice=role-changed');
    // A second Administrator's tab, drawn before that change.
    const stale = await submitForm(peopleUrl(), first, {
      set: { role: 'contributor' },
      cookie: cookies.owner,
    });
    expect(stale.status).toBe(409);
    expectText(await stale.text(), 'Someone changed this person');
    expect((await person('target@example.com'))?.role).toBe('editor');

    const fresh = await rowForm(await peoplePage(), 'Change role', ids.target as number);
    // The Owner's row offers no role form; forged, it is refused in words.
    const owner = await person('owner@example.com');
    const demote = await submitForm(peopleUrl(), fresh, {
      set: { person: String(ids.owner), version: String(owner?.version), role: 'administrator' },
      cookie: cookies.admin,
    });
    expect(demote.status).toBe(409);
    expectText(await demote.text(), 'A site always has an Owner');
    // An Administrator cannot hand the site over; nor change their own role.
    const handOver = await submitForm(peopleUrl(), fresh, {
      set: { role: 'owner' },
      cookie: cookies.admin,
    });
    expect(handOver.status).toBe(403);
    expectText(await handOver.text(), 'You cannot hand over the site');
    const admin = await person('admin@example.com');
    const self = await submitForm(peopleUrl(), fresh, {
      set: { person: String(ids.admin), version: String(admin?.version), role: 'contributor' },
      cookie: cookies.admin,
    });
    expect(self.status).toBe(409);
    expectText(await self.text(), 'You cannot change your own role');
    // A role from nowhere is a forged form: 400.
    const nonsense = await submitForm(peopleUrl(), fresh, {
      set: { role: 'emperor' },
      cookie: cookies.admin,
    });
    expect(nonsense.status).toBe(400);
    expect((await person('owner@example.com'))?.role).toBe('owner');
    expect((await person('admin@example.com'))?.role).toBe('administrator');
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('suspend: their open tab is signed out at once, sign-in refused; restore; neither to the Owner or oneself', async () => {
    const targetCookie = await signIn('target@example.com');
    expect((await get('/preview?sessions', targetCookie)).status).toBe(200);
    // A share link they made (revoked on suspension, as on removal).
    const [page] = await db.query<{ id: number }>`SELECT id FROM pages ORDER BY id LIMIT 1`;
    const link = await createPreviewLink(db, {
      pageId: Number(page?.id),
      createdBy: 'target@example.com',
      ttlSeconds: 3600,
    });
    expect((await checkPreviewLink(db, link.token)).ok).toBe(true);
    const suspend = await rowForm(await peoplePage(), 'Suspend', ids.target as number);
    const suspended = await submitForm(peopleUrl(), suspend, { cookie: cookies.admin });
    expect(suspended.status).toBe(303);
    expect((await person('target@example.com'))?.suspended_at).not.toBeNull();
    expect((await checkPreviewLink(db, link.token)).ok).toBe(false);
    // The open tab: the next page is the sign-in form, the next form refused as signed out.
    expect((await get('/preview?sessions', targetCookie)).status).toBe(401);
    const { html } = await signInWithForm(folio.url, 'target@example.com', PASSWORD);
    expectText(html, 'This account is suspended');
    expect(/target@example\.com.*Suspended/.test(plain(await peoplePage()))).toBe(true);
    // Their sessions are gone, but not the record of when they last signed in (walk-through).
    expect(
      /target@example\.com[^@]{0,120}Suspended[^@]{0,40}Not known/.test(plain(await peoplePage())),
    ).toBe(false);

    const restore = await rowForm(await peoplePage(), 'Restore', ids.target as number);
    expect((await submitForm(peopleUrl(), restore, { cookie: cookies.admin })).status).toBe(303);
    expect((await person('target@example.com'))?.suspended_at).toBeNull();
    cookies.target = await signIn('target@example.com');

    // Forged at the Owner and at oneself: refused in words.
    for (const [who, words] of [
      ['owner', 'The Owner cannot be suspended'],
      ['admin', 'You cannot suspend yourself'],
    ] as const) {
      const version = (await person(`${who}@example.com`))?.version;
      const response = await submitForm(peopleUrl(), suspend, {
        set: { person: String(ids[who]), version: String(version) },
        cookie: cookies.admin,
      });
      expect(response.status).toBe(409);
      expectText(await response.text(), words);
    }
    expect((await person('owner@example.com'))?.suspended_at).toBeNull();
  });

  test("end someone's sessions; remove them (not the Owner, not oneself)", async () => {
    const ends = await rowForm(await peoplePage(), 'End sessions (1)', ids.target as number);
    const ended = await submitForm(peopleUrl(), ends, { cookie: cookies.admin });
    expect(ended.status).toBe(303);
    expect((await get('/preview?sessions', cookies.target)).status).toBe(401);

    const owner = await person('owner@example.com');
    const remove = await rowForm(
      await peoplePage(),
      'Remove target@example.com',
      ids.target as number,
    );
    const refused = await submitForm(peopleUrl(), remove, {
      set: { person: String(ids.owner), version: String(owner?.version) },
      cookie: cookies.admin,
    });
    expect(refused.status).toBe(409);
    expectText(await refused.text(), 'The Owner cannot be removed');
    const removed = await submitForm(peopleUrl(), remove, { cookie: cookies.admin });
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toContain('notice=removed');
    expect(await person('target@example.com')).toBeNull();
    // Removed meanwhile, in another tab: said in words.
    const again = await submitForm(peopleUrl(), remove, { cookie: cookies.admin });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toContain('notice=person-gone');
    const told = await get(again.headers.get('location') ?? '', cookies.admin);
    expectText(await told.text(), 'no longer has an account');
  });

  test('one’s own sessions: where and when; end another, then this one (which says it signs out)', async () => {
    const here = await signIn('contributor@example.com');
    const { cookie: there } = await signInWithForm(folio.url, 'contributor@example.com', PASSWORD, {
      headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Firefox/130.0' },
    });
    // The other device is used once (the bar notes where).
    await get('/preview', there, {
      headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Firefox/130.0' },
    });
    const page = await get('/preview?sessions', here);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const text of ['(this session)', 'Firefox on Windows', '127.0.0.1'])
      expectText(html, text);
    expectText(html, 'End this session (signs you out here)');
    const thereId = /folio_session=([^;]+)/.exec(there)?.[1] ?? '';
    const thereKey = createHash('sha256').update(thereId).digest('hex');
    const other = (await formsIn(html)).find((form) =>
      form.fields.some(([name, value]) => name === 'session' && value === thereKey),
    );
    if (!other) throw new Error('no form for the other session');
    const ended = await submitForm(`${folio.url}/preview?sessions`, other, { cookie: here });
    expect(ended.status).toBe(303);
    expect(ended.headers.get('location')).toContain('notice=session-ended');
    expect((await get('/preview?sessions', there)).status).toBe(401);
    expect((await get('/preview?sessions', here)).status).toBe(200);
    // A forged key (someone else's session) ends nothing of theirs.
    const [adminSession] = await db.query<{ id_hash: string }>`
      SELECT id_hash FROM editor_sessions WHERE editor_id = ${ids.admin as number}`;
    const forged = await submitForm(`${folio.url}/preview?sessions`, other, {
      set: { session: adminSession?.id_hash ?? '' },
      cookie: here,
    });
    expect(forged.headers.get('location')).toContain('notice=session-gone');
    expect((await get('/preview?people', cookies.admin)).status).toBe(200);

    const mine = await formWithButton(
      await (await get('/preview?sessions', here)).text(),
      'End this session (signs you out here)',
    );
    const out = await submitForm(`${folio.url}/preview?sessions`, mine, { cookie: here });
    expect(out.status).toBe(303);
    expect((await get('/preview?sessions', cookiesFrom(out, here))).status).toBe(401);
    expect((await get('/preview?sessions', here)).status).toBe(401);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('the Owner hands the site over from the screen: the one before becomes an Administrator', async () => {
    const html = await peoplePage('owner');
    const form = await rowForm(html, 'Change role', ids.admin as number);
    expect(form.fields.some(([name]) => name === 'role')).toBe(true);
    const handed = await submitForm(peopleUrl(), form, {
      set: { role: 'owner' },
      cookie: cookies.owner,
    });
    expect(handed.status).toBe(303);
    expect(handed.headers.get('location')).toContain('notice=handed-over');
    expect((await person('admin@example.com'))?.role).toBe('owner');
    expect((await person('owner@example.com'))?.role).toBe('administrator');
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
