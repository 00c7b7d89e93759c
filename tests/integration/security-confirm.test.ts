// "Confirm it is you" (issue 28, decision 0042) against the server as the README starts it: each
// action that changes how one signs in — the authenticator app set up, turned on or off, new
// recovery codes, a passkey's options, added or removed — is refused when the session's password
// is older than ten minutes (its time set back in the database) and works once it is typed again;
// a fresh sign-in counts; a wrong password is refused in words, audited, and counted by the
// sign-in throttle (the same one: a sign-in from that browser is refused too).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor } from '../../src/lib/editors/accounts';
import { totpCode } from '../../src/lib/editors/totp';
import { DEVICE_COOKIE, SESSION_COOKIE } from '../../src/lib/http/routes';
import { callAction } from '../action-call';
import { formWithButton, type HtmlForm, signInWithForm, submitForm } from '../forms';
import { freePort, type RunningFolio, startFolio } from '../harness';

const OWNER = { email: 'owner-confirm@example.com', password: 'the owner passphrase' };
const PERSON = { email: 'person-confirm@example.com', password: 'the person passphrase' };
const GUESSED = { email: 'guessed-confirm@example.com', password: 'the guessed passphrase' };
const SCREEN = '/preview?security';
const CONFIRM_HEADING = '>Confirm it is you</h2>';
const REFUSED_WORDS = 'Nothing was changed: confirm it is you first.';

describe('confirm it is you before changing how you sign in', () => {
  let folio: RunningFolio;
  let base = '';
  const get = (address: string, cookie: string) =>
    fetch(`${base}${address}`, { redirect: 'manual', headers: { cookie } });
  const screen = async (cookie: string) => (await get(SCREEN, cookie)).text();
  const db = () => folio.database();

  /** Sets the person's sessions' confirmation back (or to null: a session from before 027). */
  async function goStale(email: string, minutes: number | null = 11) {
    const at = minutes === null ? null : new Date(Date.now() - minutes * 60_000).toISOString();
    await (await db()).query`
      UPDATE editor_sessions SET confirmed_at = ${at}
      WHERE editor_id = (SELECT id FROM editors WHERE email = ${email})`;
  }

  /** Types `password` into the screen's "Confirm it is you" form. */
  async function confirm(cookie: string, password: string) {
    const form = await formWithButton(await screen(cookie), 'Confirm');
    return submitForm(`${base}${SCREEN}`, form, { cookie, set: { password } });
  }

  /** A form of the screen as it is with a fresh confirmation (the controls are shown then). */
  async function controlForm(cookie: string, password: string, button: string) {
    await goStale(PERSON.email);
    expect((await confirm(cookie, password)).status).toBe(303);
    return formWithButton(await screen(cookie), button);
  }

  /** Posts `form` without a recent confirmation, then with one: the two answers. */
  async function refusedThenAccepted(
    cookie: string,
    password: string,
    form: HtmlForm,
    set: () => Record<string, string> = () => ({}),
  ) {
    await goStale(PERSON.email);
    const refused = await submitForm(`${base}${SCREEN}`, form, { cookie, set: set() });
    const refusedText = await refused.text();
    expect((await confirm(cookie, password)).status).toBe(303);
    const accepted = await submitForm(`${base}${SCREEN}`, form, { cookie, set: set() });
    return { refused, refusedText, accepted };
  }

  async function count(sql: 'totp' | 'confirmed-totp' | 'passkeys' | 'challenges', id: number) {
    const database = await db();
    const rows =
      sql === 'totp'
        ? await database.query`SELECT 1 AS one FROM editor_totp WHERE editor_id = ${id}`
        : sql === 'confirmed-totp'
          ? await database.query`
              SELECT 1 AS one FROM editor_totp WHERE editor_id = ${id} AND confirmed_at IS NOT NULL`
          : sql === 'passkeys'
            ? await database.query`SELECT 1 AS one FROM editor_passkeys WHERE editor_id = ${id}`
            : await database.query`
                SELECT 1 AS one FROM webauthn_challenges WHERE editor_id = ${id}`;
    return rows.length;
  }

  async function auditOf(action: string, email: string) {
    const rows = await (await db()).query<{ detail: string | null }>`
      SELECT detail FROM audit_entries WHERE action = ${action} AND actor_email = ${email}
      ORDER BY id`;
    return rows.map((row) => (row.detail ? JSON.parse(row.detail) : null));
  }

  let personId = 0;
  beforeAll(async () => {
    const port = freePort();
    base = `http://localhost:${port}`;
    folio = await startFolio({ env: { PORT: String(port), SITE_URL: base } });
    const database = await db();
    await addEditor(database, OWNER.email, OWNER.password);
    personId = (await addEditor(database, PERSON.email, PERSON.password, { role: 'editor' })).id;
    await addEditor(database, GUESSED.email, GUESSED.password, { role: 'editor' });
  }, 90_000);
  afterAll(() => folio?.stop(), 30_000);

  test('a fresh sign-in counts; a stale or missing confirmation shows the password form instead of the controls', async () => {
    const { cookie } = await signInWithForm(base, PERSON.email, PERSON.password);
    const fresh = await screen(cookie);
    expect(fresh.includes('>Set up an authenticator app<')).toBe(true);
    expect(fresh.includes('>Add a passkey<')).toBe(true);
    expect(fresh.includes(CONFIRM_HEADING)).toBe(false);
    for (const minutes of [11, null]) {
      await goStale(PERSON.email, minutes);
      const response = await get(SCREEN, cookie);
      expect(response.status).toBe(200);
      const stale = await response.text();
      expect(stale.includes(CONFIRM_HEADING)).toBe(true);
      expect(stale.includes('>Set up an authenticator app<')).toBe(false);
      expect(stale.includes('>Add a passkey<')).toBe(false);
    }
    // Nine minutes ago still counts.
    await goStale(PERSON.email, 9);
    expect((await screen(cookie)).includes('>Set up an authenticator app<')).toBe(true);
    // The confirmation is the session's, on the server: confirming sets no cookie.
    await goStale(PERSON.email);
    const confirmed = await confirm(cookie, PERSON.password);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toContain('notice=confirmed');
    expect(confirmed.headers.getSetCookie()).toEqual([]);
    expect((await screen(cookie)).includes('>Set up an authenticator app<')).toBe(true);
    expect(await auditOf('identity.confirmed', PERSON.email)).toHaveLength(1);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('each action that changes the sign-in: refused without a recent confirmation, done after one', async () => {
    const { cookie } = await signInWithForm(base, PERSON.email, PERSON.password);
    const password = PERSON.password;

    // Set up the authenticator app (a command: back to the screen, which asks for the password).
    const start = await controlForm(cookie, password, 'Set up an authenticator app');
    const setUp = await refusedThenAccepted(cookie, password, start);
    expect(setUp.refused.status).toBe(303);
    expect(setUp.refused.headers.get('location')).toContain('notice=confirm-first');
    expect(setUp.accepted.headers.get('location')).toContain('notice=totp-offered');
    const told = await (await get(`${SCREEN}&notice=confirm-first`, cookie)).text();
    expect(told.includes(REFUSED_WORDS)).toBe(true);
    expect(told.includes(CONFIRM_HEADING)).toBe(false);

    // Turn it on with its code (a form answered in place: a 403 showing the password form).
    const offered = await screen(cookie);
    const secret = (
      /Key: <code class="totp-secret">([A-Z2-7 ]+)<\/code>/.exec(offered)?.[1] ?? ''
    ).replace(/ /g, '');
    const turnOn = await formWithButton(offered, 'Turn on');
    let step = 0;
    const on = await refusedThenAccepted(cookie, password, turnOn, () => ({
      // A new step's code each time: a code is used once.
      code: totpCode(secret, Date.now() - 30_000 * (1 - step++)),
    }));
    expect(on.refused.status).toBe(403);
    expect(on.refusedText.includes(CONFIRM_HEADING)).toBe(true);
    expect(on.accepted.status).toBe(200);
    expect([
      ...(await on.accepted.text()).matchAll(/<code>([a-z2-9]{5}-[a-z2-9]{5})<\/code>/g),
    ]).toHaveLength(10);
    expect(await count('confirmed-totp', personId)).toBe(1);

    // New recovery codes.
    const renew = await controlForm(cookie, password, 'Make new recovery codes');
    const renewed = await refusedThenAccepted(cookie, password, renew);
    expect(renewed.refused.status).toBe(403);
    expect(renewed.refusedText.includes(CONFIRM_HEADING)).toBe(true);
    expect(renewed.refusedText.includes('<ol class="recovery-code-list"')).toBe(false);
    expect(renewed.accepted.status).toBe(200);
    expect((await renewed.accepted.text()).includes('<ol class="recovery-code-list"')).toBe(true);

    // Remove a passkey (one someone added, stored as registration leaves it).
    await (await db()).query`
      INSERT INTO editor_passkeys (id, editor_id, public_key, counter, transports, name, created_at)
      VALUES ('their-key', ${personId}, 'AAAA', 0, '', 'Theirs', ${new Date().toISOString()})`;
    const remove = await controlForm(cookie, password, 'Remove “Theirs”');
    await goStale(PERSON.email);
    const kept = await submitForm(`${base}${SCREEN}`, remove, { cookie });
    expect(kept.headers.get('location')).toContain('notice=confirm-first');
    expect(await count('passkeys', personId)).toBe(1);
    expect((await confirm(cookie, password)).status).toBe(303);
    const removed = await submitForm(`${base}${SCREEN}`, remove, { cookie });
    expect(removed.headers.get('location')).toContain('notice=passkey-removed');
    expect(await count('passkeys', personId)).toBe(0);

    // Turn the app off.
    const off = await controlForm(cookie, password, 'Turn off the authenticator app');
    await goStale(PERSON.email);
    const stillOn = await submitForm(`${base}${SCREEN}`, off, { cookie });
    expect(stillOn.headers.get('location')).toContain('notice=confirm-first');
    expect(await count('confirmed-totp', personId)).toBe(1);
    expect((await confirm(cookie, password)).status).toBe(303);
    const turnedOff = await submitForm(`${base}${SCREEN}`, off, { cookie });
    expect(turnedOff.headers.get('location')).toContain('notice=totp-off');
    expect(await count('totp', personId)).toBe(0);

    // Add a passkey (JavaScript calls): its options, and keeping its answer.
    const answer = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
    };
    await goStale(PERSON.email);
    const noOptions = await callAction(base, 'passkeyRegistrationOptions', '[{}]', cookie);
    expect((await noOptions.text()).includes(REFUSED_WORDS)).toBe(true);
    expect(await count('challenges', personId)).toBe(0);
    const notKept = await callAction(
      base,
      'addPasskey',
      JSON.stringify([{ answer, name: 'Mine' }]),
      cookie,
    );
    expect((await notKept.text()).includes(REFUSED_WORDS)).toBe(true);
    expect((await confirm(cookie, password)).status).toBe(303);
    const options = await callAction(base, 'passkeyRegistrationOptions', '[{}]', cookie);
    expect((await options.text()).includes('"challenge"')).toBe(true);
    expect(await count('challenges', personId)).toBe(1);
    // Past the guard now: the forged answer is refused by the verification, in its words.
    const verified = await callAction(
      base,
      'addPasskey',
      JSON.stringify([{ answer, name: 'Mine' }]),
      cookie,
    );
    const verifiedText = await verified.text();
    expect(verifiedText.includes('"error"')).toBe(true);
    expect(verifiedText.includes(REFUSED_WORDS)).toBe(false);
    expect(await count('passkeys', personId)).toBe(0);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('a wrong password is refused in words, audited, and counted by the sign-in throttle', async () => {
    const { cookie } = await signInWithForm(base, GUESSED.email, GUESSED.password);
    await goStale(GUESSED.email);
    const wrong = await confirm(cookie, 'not the passphrase at all');
    expect(wrong.status).toBe(401);
    const wrongText = await wrong.text();
    expect(wrongText.includes('That is not your password. Nothing was changed.')).toBe(true);
    expect(wrongText.includes('not the passphrase at all')).toBe(false);
    expect((await screen(cookie)).includes(CONFIRM_HEADING)).toBe(true);
    // The sign-in throttle's budget for this browser (a device it signed in on): ten a quarter.
    let throttled: Response | null = null;
    let tries = 1;
    while (!throttled && tries < 15) {
      const answer = await confirm(cookie, `wrong passphrase ${tries++}`);
      if (answer.status === 429) throttled = answer;
      else expect(answer.status).toBe(401);
    }
    expect(tries).toBe(11);
    expect((await throttled?.text())?.includes('Too many attempts. Try again in')).toBe(true);
    // The right password is not even checked now, and nothing is confirmed.
    expect((await confirm(cookie, GUESSED.password)).status).toBe(429);
    expect((await screen(cookie)).includes(CONFIRM_HEADING)).toBe(true);
    // The same throttle as signing in: a sign-in from this browser is refused too.
    const device = cookie.split('; ').find((pair) => pair.startsWith(`${DEVICE_COOKIE}=`));
    expect(device).toBeDefined();
    const signIn = await signInWithForm(base, GUESSED.email, GUESSED.password, {
      cookie: device ?? '',
    });
    expect(signIn.html.includes('Too many attempts')).toBe(true);
    expect(signIn.cookie).not.toContain(`${SESSION_COOKIE}=`);
    const failed = await auditOf('identity.confirm_failed', GUESSED.email);
    expect(failed.filter((detail) => detail?.reason === 'mismatch')).toHaveLength(10);
    expect(failed.filter((detail) => detail?.reason === 'throttled')).toHaveLength(2);
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
