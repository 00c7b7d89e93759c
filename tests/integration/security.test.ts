// Stronger sign-in (issue 28) against the server as the README starts it, through the forms as a
// browser without JavaScript posts them: the password then the authenticator app's code (the
// second step's page keeps nothing of the first), a wrong code, a reused code, a recovery
// code, the throttle, and the site's rule sending someone without a second factor to set one up.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SECOND_FACTOR_FIRST_WORDS } from '../../src/components/preview/screens/second-factor-first';
import { addEditor } from '../../src/lib/editors/accounts';
import { confirmTotp, offerTotpSecret, totpCode } from '../../src/lib/editors/totp';
import { SECOND_STEP_COOKIE, SESSION_COOKIE } from '../../src/lib/http/routes';
import { callAction } from '../action-call';
import { cookiesFrom, formWithButton, signInWithForm, submitForm } from '../forms';
import { freePort, type RunningFolio, startFolio, withStore } from '../harness';

const OWNER = { email: 'owner-2fa@example.com', password: 'the owner passphrase' };
const APP = { email: 'app-2fa@example.com', password: 'the app passphrase' };
const PLAIN = { email: 'plain-2fa@example.com', password: 'the plain passphrase' };
const LOW = { email: 'low-2fa@example.com', password: 'the low passphrase' };

describe('second factors', () => {
  let folio: RunningFolio;
  let base = '';
  let secret = '';
  let recoveryCodes: string[] = [];
  const get = (address: string, cookie = '') =>
    fetch(`${base}${address}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

  beforeAll(async () => {
    // Passkeys and the app are made for SITE_URL: the tests ask at that origin.
    const port = freePort();
    base = `http://localhost:${port}`;
    folio = await startFolio({ env: { PORT: String(port), SITE_URL: base } });
    const db = await folio.database();
    await addEditor(db, OWNER.email, OWNER.password);
    await addEditor(db, APP.email, APP.password, { role: 'editor' });
    await addEditor(db, PLAIN.email, PLAIN.password, { role: 'editor' });
    await addEditor(db, LOW.email, LOW.password, { role: 'contributor' });
    // APP sets up the authenticator app on the security screen.
    const { cookie } = await signInWithForm(base, APP.email, APP.password);
    const start = await formWithButton(
      await (await get('/preview?security', cookie)).text(),
      'Set up an authenticator app',
    );
    const offered = await submitForm(`${base}/preview?security`, start, { cookie });
    expect(offered.status).toBe(303);
    const setUp = await (await get('/preview?security&notice=totp-offered', cookie)).text();
    expect(setUp.includes('aria-label="QR code for your authenticator app"')).toBe(true);
    secret = (/Key: <code class="totp-secret">([A-Z2-7 ]+)<\/code>/.exec(setUp)?.[1] ?? '').replace(
      / /g,
      '',
    );
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const confirm = await formWithButton(setUp, 'Turn on');
    const wrong = await submitForm(`${base}/preview?security`, confirm, {
      cookie,
      set: { code: '000000' },
    });
    expect(wrong.status).toBe(422);
    expect((await wrong.text())?.includes('That code is not the one the app shows')).toBe(true);
    // A code of the step before: the one sign-in will use below is the next step's.
    const confirmed = await submitForm(`${base}/preview?security`, confirm, {
      cookie,
      set: { code: totpCode(secret, Date.now() - 30_000) },
    });
    expect(confirmed.status).toBe(200);
    const shown = await confirmed.text();
    recoveryCodes = [...shown.matchAll(/<code>([a-z2-9]{5}-[a-z2-9]{5})<\/code>/g)].map(
      (m) => m[1] as string,
    );
    expect(recoveryCodes).toHaveLength(10);
  }, 90_000);
  afterAll(() => folio?.stop(), 30_000);

  /** A JavaScript action call, as Waku's router sends it (tests/action-call.ts). */
  const call = (action: string, body: string, cookie = '') =>
    callAction(base, action, body, cookie);

  /** The password step: a 303, a waiting-sign-in cookie and no session. */
  async function passwordStep(who: { email: string; password: string }) {
    const { response, cookie } = await signInWithForm(base, who.email, who.password);
    expect(response.status).toBe(303);
    expect(cookie).toContain(`${SECOND_STEP_COOKIE}=`);
    expect(cookie).not.toContain(`${SESSION_COOKIE}=`);
    const page = await get('/preview', cookie);
    expect(page.status).toBe(401);
    const html = await page.text();
    expect(html.includes('Confirm it is you')).toBe(true);
    // Nothing of the first step is in the page: no password, no token.
    expect(html.includes(who.password)).toBe(false);
    expect(html.includes(/folio_second_step=([^;]+)/.exec(cookie)?.[1] ?? 'none')).toBe(false);
    return { cookie, form: await formWithButton(html, 'Continue') };
  }

  test('password, then the app’s code: signed in; the same code again is refused in words', async () => {
    const { cookie, form } = await passwordStep(APP);
    const wrong = await submitForm(`${base}/preview`, form, { cookie, set: { code: '000000' } });
    expect(wrong.status).toBe(401);
    expect((await wrong.text())?.includes('That code is not right. 4 attempt(s) left.')).toBe(true);
    const code = totpCode(secret);
    const right = await submitForm(`${base}/preview`, form, { cookie, set: { code } });
    expect(right.status).toBe(303);
    expect(new URL(right.headers.get('location') ?? '', base).href).toBe(`${base}/preview`);
    const signedIn = cookiesFrom(right, cookie);
    expect(signedIn).toContain(`${SESSION_COOKIE}=`);
    expect(signedIn).not.toContain(`${SECOND_STEP_COOKIE}=`);
    expect((await get('/preview', signedIn)).status).toBe(200);
    // Someone who saw the code (a shoulder, a phishing proxy) cannot use it again.
    const again = await passwordStep(APP);
    const replay = await submitForm(`${base}/preview`, again.form, {
      cookie: again.cookie,
      set: { code },
    });
    expect(replay.status).toBe(401);
    expect((await replay.text())?.includes('That code was used already')).toBe(true);
    expect(cookiesFrom(replay, again.cookie)).not.toContain(`${SESSION_COOKIE}=`);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('a recovery code signs in once', async () => {
    const [code = ''] = recoveryCodes;
    const first = await passwordStep(APP);
    const used = await submitForm(`${base}/preview`, first.form, {
      cookie: first.cookie,
      set: { code },
    });
    expect(used.status).toBe(303);
    expect(cookiesFrom(used, first.cookie)).toContain(`${SESSION_COOKIE}=`);
    const second = await passwordStep(APP);
    const refused = await submitForm(`${base}/preview`, second.form, {
      cookie: second.cookie,
      set: { code },
    });
    expect(refused.status).toBe(401);
    expect((await refused.text())?.includes('That code is not right')).toBe(true);
  });

  test('without the waiting sign-in, a code is no sign-in; Start over forgets it', async () => {
    const { cookie, form } = await passwordStep(APP);
    const over = await submitForm(
      `${base}/preview`,
      await formWithButton(await (await get('/preview', cookie)).text(), 'Start over'),
      { cookie },
    );
    expect(over.status).toBe(303);
    const after = cookiesFrom(over, cookie);
    expect(after).not.toContain(`${SECOND_STEP_COOKIE}=`);
    // The old cookie, kept by someone, names nothing now.
    const stale = await submitForm(`${base}/preview`, form, {
      cookie,
      set: { code: totpCode(secret) },
    });
    // Nothing waits now: the sign-in form again, saying why, and no session.
    expect(stale.status).toBe(303);
    expect(cookiesFrom(stale, after)).not.toContain(`${SESSION_COOKIE}=`);
    const ended = await get(stale.headers.get('location') ?? '', after);
    expect(ended.status).toBe(401);
    const endedPage = await ended.text();
    expect(endedPage.includes('Sign in to preview')).toBe(true);
    expect(endedPage.includes('That sign-in has ended')).toBe(true);
  });

  test('guessing codes is throttled: five a quarter-hour per account', async () => {
    // Codes already tried above count too; try until the throttle answers, at most 6 more.
    let throttled: Response | null = null;
    for (let attempt = 0; attempt < 8 && !throttled; attempt++) {
      const { cookie, form } = await passwordStep(APP);
      const answer = await submitForm(`${base}/preview`, form, { cookie, set: { code: '111111' } });
      if (answer.status === 429) throttled = answer;
      else expect(answer.status).toBe(401);
    }
    expect(throttled).not.toBeNull();
    expect((await throttled?.text())?.includes('Too many codes tried. Try again in')).toBe(true);
  });

  test('the rule: an Editor without a second factor is sent to set one up; a Contributor is not', async () => {
    const owner = (await signInWithForm(base, OWNER.email, OWNER.password)).cookie;
    // Signed in before the rule: told on every screen from then on (walk-through, issue 28).
    const before = (await signInWithForm(base, PLAIN.email, PLAIN.password)).cookie;
    const screen = await (await get('/preview?security', owner)).text();
    const rule = await formWithButton(screen, 'Save the rule');
    // A rule that covers the one saving it, who has no factor, would lock them out of every
    // change (the rule's own included): refused until they have one (walk-through).
    const tooSoon = await submitForm(`${base}/preview?security`, rule, {
      cookie: owner,
      set: { least: 'editor' },
    });
    expect(tooSoon.headers.get('location')).toContain('notice=rule-covers-you');
    const db = await folio.database();
    const ownerId = Number(
      (await db.query<{ id: number }>`SELECT id FROM editors WHERE email = ${OWNER.email}`)[0]?.id,
    );
    const ownersSecret = (await db.transaction((q) => offerTotpSecret(q, ownerId))) ?? '';
    await db.transaction((q) => confirmTotp(q, ownerId, totpCode(ownersSecret, Date.now())));
    const saved = await submitForm(`${base}/preview?security`, rule, {
      cookie: owner,
      set: { least: 'editor' },
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toContain('notice=rule-saved');
    const plain = await signInWithForm(base, PLAIN.email, PLAIN.password);
    expect(plain.response.status).toBe(303);
    expect(new URL(plain.response.headers.get('location') ?? '', base).href).toBe(
      `${base}/preview?security&notice=second-factor-required`,
    );
    const told = await (
      await get('/preview?security&notice=second-factor-required', plain.cookie)
    ).text();
    const RULE_WORDS = 'This site asks people in your role for a second factor';
    // The security screen, the one screen open to them, says it in its own words.
    expect(told.includes(RULE_WORDS)).toBe(true);
    // Every other preview screen is a 403 saying so (second hostile pass: a password alone
    // read every draft, history and the library while each write was refused).
    const draftSlug = 'a-draft-under-the-rule';
    await withStore(folio, (store) =>
      store.putPage({
        slug: draftSlug,
        title: 'Secret draft',
        summary: '',
        body: 'DRAFT-ONLY-TEXT',
      }),
    );
    for (const address of [
      '/preview',
      '/preview?media',
      '/preview?sessions',
      `/preview/${draftSlug}`,
      `/preview/${draftSlug}?edit`,
      `/preview/${draftSlug}?history`,
    ]) {
      const response = await get(address, before);
      const html = await response.text();
      expect([address, response.status, html.includes(SECOND_FACTOR_FIRST_WORDS)]).toEqual([
        address,
        403,
        true,
      ]);
      expect([address, html.includes('DRAFT-ONLY-TEXT'), html.includes('Secret draft')]).toEqual([
        address,
        false,
        false,
      ]);
    }
    // The Owner, who has a factor now, reads on; so does a Contributor, whom it does not cover.
    expect((await get(`/preview/${draftSlug}`, owner)).status).toBe(200);
    // Only those who may change site settings see or save the rule.
    expect(told.includes('Save the rule')).toBe(false);
    const forged = await submitForm(`${base}/preview?security`, rule, {
      cookie: plain.cookie,
      set: { least: '' },
    });
    expect(forged.headers.get('location')).toContain('notice=forbidden');
    const low = await signInWithForm(base, LOW.email, LOW.password);
    expect(new URL(low.response.headers.get('location') ?? '', base).href).toBe(`${base}/preview`);
    expect((await get('/preview', low.cookie)).status).toBe(200);
    // A role that is none: a forged form, refused in words as a 400.
    const bad = await submitForm(`${base}/preview?security`, rule, {
      cookie: owner,
      set: { least: 'emperor' },
    });
    expect(bad.status).toBe(400);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('passkey sign-in calls: forged arguments are a 400; another origin, a replay, an unknown challenge are refused in words', async () => {
    for (const body of ['["$T"]', '[{"answer":{"id":5},"next":"/preview"}]', '[]', 'not json']) {
      const forged = await call('passkeySignIn', body);
      expect(forged.status).toBe(400);
      expect((await forged.text()).includes('    at ')).toBe(false);
    }
    // A signed-out call is a few short fields: more than a sign-in's room is refused unread.
    const large = await call(
      'passkeySignIn',
      JSON.stringify([{ answer: { id: 'A'.repeat(20_000) } }]),
    );
    expect(large.status).toBe(413);
    const options = await (await call('passkeySignInOptions', '[]')).text();
    const challenge = /"challenge":"([A-Za-z0-9_-]+)"/.exec(options)?.[1];
    expect(challenge).toBeDefined();
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const answer = (origin: string) => ({
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64(JSON.stringify({ type: 'webauthn.get', challenge, origin })),
        authenticatorData: 'AAAA',
        signature: 'AAAA',
      },
    });
    const phished = await call(
      'passkeySignIn',
      JSON.stringify([{ answer: answer('https://evil.example'), next: '/preview' }]),
    );
    const phishedText = await phished.text();
    expect(phishedText.includes('made for another site address')).toBe(true);
    expect(phished.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(
      false,
    );
    // The same challenge again, now from the right origin: it was used up.
    const replayed = await call(
      'passkeySignIn',
      JSON.stringify([{ answer: answer(base), next: '/preview' }]),
    );
    expect((await replayed.text()).includes('expired or was already used')).toBe(true);
    expect(replayed.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(
      false,
    );
    // Registering needs a session: signed out, the call is refused in words.
    const signedOut = await call('passkeyRegistrationOptions', '[{}]');
    expect((await signedOut.text()).includes('Your session has ended')).toBe(true);
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
