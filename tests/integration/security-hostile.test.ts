// Issue 28's hostile pass, the sign-in findings (4, 5, 6, 7, 8), through the server as the README
// starts it: a password reset takes the person's second factors with it; the site's rule is
// enforced on every action, not only by the landing after sign-in; a refused share link says
// why in the role's words; refused second steps and passkey sign-ins leave audit entries.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor, type Editor } from '../../src/lib/editors/accounts';
import { confirmTotp, offerTotpSecret, totpCode } from '../../src/lib/editors/totp';
import { SECOND_STEP_COOKIE, SESSION_COOKIE } from '../../src/lib/http/routes';
import { createPreviewLink } from '../../src/lib/share-links/share-links';
import { callAction } from '../action-call';
import { cookiesFrom, formWithButton, signInWithForm, submitForm } from '../forms';
import { freePort, type RunningFolio, runFolioCli, startFolio, withStore } from '../harness';

const OWNER = { email: 'owner-h@example.com', password: 'the owner passphrase' };
const RESET = { email: 'reset-h@example.com', password: 'the reset passphrase' };
const CODES = { email: 'codes-h@example.com', password: 'the codes passphrase' };
const LOW = { email: 'low-h@example.com', password: 'the low passphrase' };
const PLAIN = { email: 'plain-h@example.com', password: 'the plain passphrase' };

describe('sign-in security (hostile pass of issue 28)', () => {
  let folio: RunningFolio;
  let base = '';
  const editors = new Map<string, Editor>();
  const get = (address: string, cookie = '') =>
    fetch(`${base}${address}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const db = () => folio.database();

  /** Turns the authenticator app on for `who` (as the security screen does); its secret. */
  async function withApp(who: { email: string }): Promise<string> {
    const id = editors.get(who.email)?.id ?? 0;
    const database = await db();
    const secret = (await database.transaction((q) => offerTotpSecret(q, id))) ?? '';
    const codes = await database.transaction((q) =>
      confirmTotp(q, id, totpCode(secret, Date.now() - 30_000)),
    );
    expect(codes).toHaveLength(10);
    return secret;
  }

  /** The audit entries of `action` about `email` (as actor), oldest first. */
  async function entries(action: string, email: string | null) {
    const rows = await (await db()).query<{ actor_email: string | null; detail: string }>`
      SELECT actor_email, detail FROM audit_entries WHERE action = ${action} ORDER BY id`;
    return rows
      .filter((row) => row.actor_email === email)
      .map((row) => JSON.parse(row.detail) as Record<string, unknown>);
  }

  beforeAll(async () => {
    // Passkeys are made for SITE_URL: the passkey calls are made at that origin.
    const port = freePort();
    base = `http://localhost:${port}`;
    folio = await startFolio({ env: { PORT: String(port), SITE_URL: base } });
    const database = await db();
    editors.set(OWNER.email, await addEditor(database, OWNER.email, OWNER.password));
    editors.set(
      RESET.email,
      await addEditor(database, RESET.email, RESET.password, { role: 'editor' }),
    );
    editors.set(
      CODES.email,
      await addEditor(database, CODES.email, CODES.password, { role: 'editor' }),
    );
    editors.set(
      LOW.email,
      await addEditor(database, LOW.email, LOW.password, { role: 'contributor' }),
    );
    editors.set(
      PLAIN.email,
      await addEditor(database, PLAIN.email, PLAIN.password, { role: 'editor' }),
    );
  }, 90_000);
  afterAll(() => folio?.stop(), 30_000);

  test('finding 4: a password reset removes passkeys, the app and recovery codes, and says how many', async () => {
    await withApp(RESET);
    const id = editors.get(RESET.email)?.id ?? 0;
    // A passkey someone added while they held the account (stored as registration leaves it).
    await (await db()).query`
      INSERT INTO editor_passkeys (id, editor_id, public_key, counter, transports, name, created_at)
      VALUES ('thief-key', ${id}, 'AAAA', 0, '', 'Thief', ${new Date().toISOString()})`;
    const run = await runFolioCli(['editor', 'add', RESET.email], {
      databaseUrl: folio.databaseUrl,
      stdin: 'a brand new passphrase\n',
    });
    expect(run).toMatchObject({
      code: 0,
      stdout: `password of ${RESET.email} reset (Editor); 0 session(s) ended, 2 second factors (passkeys, authenticator app) removed and revoked 0 share links they made\n`,
    });
    const [left] = await (await db()).query<{ n: number | string }>`
      SELECT (SELECT COUNT(*) FROM editor_passkeys WHERE editor_id = ${id})
        + (SELECT COUNT(*) FROM editor_totp WHERE editor_id = ${id})
        + (SELECT COUNT(*) FROM editor_recovery_codes WHERE editor_id = ${id}) AS n`;
    expect(Number(left?.n)).toBe(0);
    // The new password alone signs in now: no second step the thief set up is asked.
    const signedIn = await signInWithForm(base, RESET.email, 'a brand new passphrase');
    expect(signedIn.response.status).toBe(303);
    expect(signedIn.cookie).toContain(`${SESSION_COOKIE}=`);
    expect(signedIn.cookie).not.toContain(`${SECOND_STEP_COOKIE}=`);
    expect(await entries('editor.password_reset', null)).toContainEqual(
      expect.objectContaining({ person: RESET.email, factorsRemoved: 2 }),
    );
  });

  test('finding 7: a share link refused by the role says so, not "busy"', async () => {
    const slug = 'hostile-share';
    await withStore(folio, (store) =>
      store.putPage({ slug, title: 'Not theirs', summary: '', body: 'Text.' }),
    );
    const owner = (await signInWithForm(base, OWNER.email, OWNER.password)).cookie;
    const low = (await signInWithForm(base, LOW.email, LOW.password)).cookie;
    const form = await formWithButton(
      await (await get(`/preview/${slug}`, owner)).text(),
      'Create share link',
    );
    const refused = await submitForm(`${base}/preview/${slug}`, form, { cookie: low });
    expect(refused.status).toBe(403);
    const html = await refused.text();
    expect(html.includes('You cannot share this page: Contributors may not.')).toBe(true);
    expect(html.includes('Folio is busy')).toBe(false);
  });

  /** The password step of someone with the app: the code form and the waiting cookie. */
  async function passwordStep(who: { email: string; password: string }) {
    const { cookie } = await signInWithForm(base, who.email, who.password);
    expect(cookie).toContain(`${SECOND_STEP_COOKIE}=`);
    return {
      cookie,
      form: await formWithButton(await (await get('/preview', cookie)).text(), 'Continue'),
    };
  }

  test('finding 8: a reused code and a throttled one each leave an entry saying so', async () => {
    const secret = await withApp(CODES);
    const code = totpCode(secret);
    const first = await passwordStep(CODES);
    const used = await submitForm(`${base}/preview`, first.form, {
      cookie: first.cookie,
      set: { code },
    });
    expect(cookiesFrom(used, first.cookie)).toContain(`${SESSION_COOKIE}=`);
    const again = await passwordStep(CODES);
    const replay = await submitForm(`${base}/preview`, again.form, {
      cookie: again.cookie,
      set: { code },
    });
    expect(replay.status).toBe(401);
    expect(await entries('second-factor.failed', CODES.email)).toEqual([{ reused: true }]);
    let throttled = 0;
    for (let attempt = 0; attempt < 8 && throttled === 0; attempt++) {
      const step = await passwordStep(CODES);
      const answer = await submitForm(`${base}/preview`, step.form, {
        cookie: step.cookie,
        set: { code: '111111' },
      });
      if (answer.status === 429) throttled++;
    }
    expect(throttled).toBe(1);
    const failed = await entries('second-factor.failed', CODES.email);
    expect(failed.at(-1)).toEqual({ reused: false, throttled: true });
    expect(failed.filter((detail) => detail.reused === false && !detail.throttled).length).toBe(
      failed.length - 2,
    );
  });

  /** A JavaScript action call, as Waku's router sends it (tests/action-call.ts). */
  const call = (action: string, body: string) => callAction(base, action, body);

  test('finding 8: a refused passkey sign-in (another origin, a replay) leaves an entry each', async () => {
    const before = (await entries('sign-in.failed', null)).length;
    const options = await (await call('passkeySignInOptions', '[]')).text();
    const challenge = /"challenge":"([A-Za-z0-9_-]+)"/.exec(options)?.[1];
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
    for (const origin of ['https://evil.example', base]) {
      const refused = await call(
        'passkeySignIn',
        JSON.stringify([{ answer: answer(origin), next: '/preview' }]),
      );
      expect((await refused.text()).includes('"error"')).toBe(true);
    }
    expect((await entries('sign-in.failed', null)).slice(before)).toEqual([
      { reason: 'origin', method: 'passkey' },
      { reason: 'challenge', method: 'passkey' },
    ]);
  });

  test('finding 6: the banner shows a Contributor no button their role may not press', async () => {
    const database = await db();
    const lowId = editors.get(LOW.email)?.id ?? 0;
    const made = async (slug: string, maker: number, publish: boolean) => {
      await withStore(folio, (store) =>
        store.putPage({ slug, title: slug, summary: '', body: 'Text.' }, { publish }),
      );
      const page = await withStore(folio, (store) => store.getPage(slug, { draft: true }));
      // A second save: the history has an earlier save to restore.
      await withStore(folio, (store) =>
        store.putPage({ slug, title: slug, summary: '', body: 'Newer text.' }),
      );
      await database.query`UPDATE pages SET created_by = ${maker} WHERE id = ${page?.id ?? 0}`;
      await createPreviewLink(database, {
        pageId: page?.id ?? 0,
        createdBy: OWNER.email,
        ttlSeconds: 3600,
      });
    };
    await made('banner-others', editors.get(OWNER.email)?.id ?? 0, true);
    await made('banner-own', lowId, true);
    const low = (await signInWithForm(base, LOW.email, LOW.password)).cookie;
    const buttons = async (slug: string) => {
      const html = await (await get(`/preview/${slug}`, low)).text();
      return {
        edit: html.includes(`href="/preview/${slug}?edit"`),
        unpublish: html.includes(`?confirm=unpublish`),
        share: html.includes('>Create share link<'),
        revoke: html.includes('>Revoke<'),
        history: html.includes(`href="/preview/${slug}?history"`),
        restore: (await (await get(`/preview/${slug}?history`, low)).text()).includes(
          '>Restore as draft<',
        ),
      };
    };
    expect(await buttons('banner-others')).toEqual({
      edit: false,
      unpublish: false,
      share: false,
      revoke: false,
      history: true,
      restore: false,
    });
    // The media library: alt text and delete are for Editors and up.
    const owner = (await signInWithForm(base, OWNER.email, OWNER.password)).cookie;
    const { default: sharp } = await import('sharp');
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 9, g: 40, b: 90 } },
    })
      .png()
      .toBuffer();
    const upload = await formWithButton(
      await (await get('/preview?media', owner)).text(),
      'Upload',
    );
    const uploaded = await submitForm(`${base}/preview?media`, upload, {
      cookie: owner,
      set: {
        file: new File([new Uint8Array(png)], 'hostile.png', { type: 'image/png' }),
        alt: 'A hostile square',
      },
    });
    expect(uploaded.status).toBeLessThan(400);
    const library = async (cookie: string) => {
      const html = await (await get('/preview?media', cookie)).text();
      return { alt: html.includes('>Save alt text<'), listed: html.includes('A hostile square') };
    };
    expect(await library(owner)).toEqual({ alt: true, listed: true });
    expect(await library(low)).toEqual({ alt: false, listed: true });
    // Their own page (published, a draft over it): what they may do is offered, not Unpublish.
    expect(await buttons('banner-own')).toEqual({
      edit: true,
      unpublish: false,
      share: true,
      revoke: true,
      history: true,
      restore: true,
    });
  });

  // Last: the rule set here covers the Owner too.
  test('finding 5: under the rule, a person with no factor may only set one up', async () => {
    const owner = (await signInWithForm(base, OWNER.email, OWNER.password)).cookie;
    // The Owner sets the app up first, then the rule for Editors and above.
    await withApp(OWNER);
    const rule = await formWithButton(
      await (await get('/preview?security', owner)).text(),
      'Save the rule',
    );
    const saved = await submitForm(`${base}/preview?security`, rule, {
      cookie: owner,
      set: { least: 'editor' },
    });
    expect(saved.headers.get('location')).toContain('notice=rule-saved');
    const plain = (await signInWithForm(base, PLAIN.email, PLAIN.password)).cookie;
    // A form: refused as a 403 in words pointing to the security screen, the text kept.
    const create = await formWithButton(
      await (await get('/preview?new', owner)).text(),
      'Create draft',
    );
    const refused = await submitForm(`${base}/preview?new`, create, {
      cookie: plain,
      set: { title: 'Typed by plain', slug: 'typed-by-plain', kind: 'page' },
    });
    expect(refused.status).toBe(403);
    const html = await refused.text();
    expect(html.includes('this site asks people in your role for a second factor')).toBe(true);
    expect(html.includes('Typed by plain')).toBe(true);
    expect(
      await withStore(folio, (store) => store.getPage('typed-by-plain', { draft: true })),
    ).toBeNull();
    // A command: to the security screen, which says why; nothing done.
    const topic = await formWithButton(
      await (await get('/preview?security', plain)).text(),
      'Set up an authenticator app',
    );
    await withStore(folio, (store) =>
      store.putPage(
        { slug: 'plain-unpublish', title: 'P', summary: '', body: 'x' },
        { publish: true },
      ),
    );
    const unpublish = await formWithButton(
      await (await get('/preview/plain-unpublish?confirm=unpublish', owner)).text(),
      'Unpublish',
    );
    const command = await submitForm(
      `${base}/preview/plain-unpublish?confirm=unpublish`,
      unpublish,
      {
        cookie: plain,
        button: 'Unpublish',
      },
    );
    expect(command.status).toBe(303);
    expect(command.headers.get('location')).toContain(
      '/preview?security&notice=second-factor-required',
    );
    expect(
      (await withStore(folio, (store) => store.getPage('plain-unpublish', { draft: true })))?.state,
    ).toBe('published');
    // The security screen's own actions still work: setting up the app.
    const offered = await submitForm(`${base}/preview?security`, topic, { cookie: plain });
    expect(offered.headers.get('location')).toContain('notice=totp-offered');
    // With a factor, the same form is saved.
    await withApp(PLAIN);
    const allowed = await submitForm(`${base}/preview?new`, create, {
      cookie: plain,
      set: { title: 'Typed by plain', slug: 'typed-by-plain', kind: 'page' },
    });
    expect(allowed.status).toBe(303);
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
