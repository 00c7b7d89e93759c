// Invitations emailed (issue 28, decision 0043) against the server as the README starts it,
// with SMTP_URL pointing at a real SMTP receiver on loopback (tests/smtp-receiver.ts) and Sentry
// at a real envelope receiver. The mail arrives to the invitee from MAIL_FROM with the link, and
// the link works; then the same receiver refuses every recipient (550), then it is gone (a port
// nobody listens on): each time the invitation stands, its link is shown, the screen says it was
// not emailed and why — no 5xx, no unexpected-error line, nothing for Sentry, and neither the
// mail server's password nor a link's token in the log. Both the form post (no JavaScript) and
// the JavaScript call carry the outcome.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Database } from '../../src/lib/data/db';
import { addEditor } from '../../src/lib/editors/accounts';
import { cookiesFrom, formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio } from '../harness';
import { type EnvelopeReceiver, errorEvents, startEnvelopeReceiver } from '../sentry-receiver';
import { type SmtpReceiver, startSmtpReceiver } from '../smtp-receiver';

const PASSWORD = 'a long enough passphrase';
const SMTP_PASSWORD = 'smtp-pa55word-kept-out-of-logs';
const MAIL_FROM = 'Folio Invitations <invitations@example.com>';
const LINK = /http:\/\/[^"\s<]+\/preview\?invite=([A-Za-z0-9_-]{43})/;
const plain = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ');

describe('invitations emailed', () => {
  let folio: RunningFolio;
  let db: Database;
  let smtp: SmtpReceiver;
  let sentry: EnvelopeReceiver;
  let owner = '';
  let actionId = '';
  const tokens: string[] = [];
  const peopleUrl = () => `${folio.url}/preview?people`;
  const get = (address: string, cookie = '') =>
    fetch(`${folio.url}${address}`, {
      redirect: 'manual',
      headers: cookie ? { cookie } : {},
    });

  /** Invites through the form as a browser without JavaScript posts it: status, words, link. */
  async function inviteByForm(email: string, role = 'author') {
    const page = await (await get('/preview?people', owner)).text();
    const answer = await submitForm(peopleUrl(), await formWithButton(page, 'Invite'), {
      set: { email, role },
      cookie: owner,
    });
    const html = await answer.text();
    const token = LINK.exec(html)?.[1];
    if (token) tokens.push(token);
    return { status: answer.status, words: plain(html), link: LINK.exec(html)?.[0], token };
  }

  /** Invites through the JavaScript call useActionState makes (the form as React encodes it). */
  async function inviteByScript(email: string) {
    const body = new FormData();
    body.append('0', '["$undefined","$K1"]');
    body.append('_1_email', email);
    body.append('_1_role', 'contributor');
    const response = await fetch(`${folio.url}/preview?people`, {
      method: 'POST',
      body,
      redirect: 'manual',
      headers: {
        origin: folio.url,
        cookie: owner,
        'x-folio-action': `/RSC/F/${actionId}/invitePerson.txt`,
        'x-waku-action-location': '/preview?people',
      },
    });
    const payload = await response.text();
    const token = LINK.exec(payload)?.[1];
    if (token) tokens.push(token);
    return { status: response.status, payload, token };
  }

  const pending = async (email: string) =>
    (
      await db.query<{ n: number | string }>`
        SELECT COUNT(*) AS n FROM invitations
        WHERE email = ${email} AND accepted_at IS NULL AND revoked_at IS NULL`
    )[0]?.n;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    sentry = startEnvelopeReceiver();
    folio = await startFolio({
      env: {
        SMTP_URL: smtp.url(`folio:${SMTP_PASSWORD}`),
        MAIL_FROM,
        SENTRY_DSN: sentry.dsn,
      },
    });
    db = await folio.database();
    expect((await addEditor(db, 'owner@example.com', PASSWORD)).role).toBe('owner');
    const signedIn = await signInWithForm(folio.url, 'owner@example.com', PASSWORD);
    expect(signedIn.response.status).toBe(303);
    owner = signedIn.cookie;
    for await (const path of new Bun.Glob('dist/public/assets/*.js').scan('.'))
      actionId ||=
        /([0-9a-f]{12})#invitePerson\b/.exec(await Bun.file(path).text())?.[1] ?? actionId;
    if (!actionId) throw new Error('the build names no invitePerson (bun run build first)');
  }, 60_000);
  afterAll(async () => {
    await folio?.stop();
    await smtp?.stop();
    sentry?.stop();
  }, 30_000);

  test('an Owner’s invitation arrives at the invitee from MAIL_FROM with the link, which works', async () => {
    // The screen says before anyone invites that the link is emailed.
    const screen = await (
      await fetch(`${folio.url}/preview?people`, { headers: { cookie: owner } })
    ).text();
    expect(screen.includes('Folio emails it to them')).toBe(true);
    const answer = await inviteByForm('Mailed.Person@Example.com', 'author');
    expect(answer.status).toBe(200);
    expect(answer.words).toContain('Emailed to mailed.person@example.com.');
    expect(answer.link).toBeDefined();

    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0];
    expect(mail?.user).toBe('folio');
    expect(mail?.envelopeFrom).toBe('invitations@example.com');
    expect(mail?.envelopeTo).toEqual(['mailed.person@example.com']);
    expect(mail?.headers.find(([name]) => name === 'from')?.[1]).toBe(MAIL_FROM);
    expect(mail?.headers.find(([name]) => name === 'to')?.[1]).toBe('mailed.person@example.com');
    const [title] = await db.query<{ value: string }>`
      SELECT value FROM settings WHERE key = 'site_title'`;
    for (const words of [
      'owner@example.com has invited you',
      `join ${title?.value ?? 'Folio'} (${folio.url})`,
      'as Author',
      answer.link as string,
    ])
      expect(mail?.text).toContain(words);
    expect(mail?.html).toContain(`href="${answer.link}"`);

    // The emailed link, followed signed out, makes the account with the role and signs in.
    const link = `/preview?invite=${LINK.exec(mail?.text ?? '')?.[1]}`;
    const open = await get(link);
    expect(open.status).toBe(200);
    const join = await formWithButton(await open.text(), 'Join and sign in');
    const joined = await submitForm(`${folio.url}${link}`, join, { set: { password: PASSWORD } });
    expect(joined.status).toBe(303);
    const sessions = await get('/preview?sessions', cookiesFrom(joined));
    expect(sessions.status).toBe(200);
    expect(plain(await sessions.text())).toContain('signed in as mailed.person@example.com');
    const [made] = await db.query<{ role: string }>`
      SELECT role FROM editors WHERE email = 'mailed.person@example.com'`;
    expect(made?.role).toBe('author');
  });

  test('the JavaScript call carries the outcome too', async () => {
    const answer = await inviteByScript('scripted@example.com');
    expect(answer.status).toBe(200);
    expect(answer.payload).toContain('"emailed":{"sent":true}');
    expect(answer.token).toBeDefined();
    expect(smtp.messages.at(-1)?.envelopeTo).toEqual(['scripted@example.com']);
    expect(smtp.messages.at(-1)?.text).toContain(answer.token as string);
  });

  test('a mail server refusing the recipient (550): the invitation stands, its link shown, in words', async () => {
    smtp.refuseRecipients(true);
    const before = smtp.messages.length;
    const answer = await inviteByForm('refused@example.com');
    expect(answer.status).toBe(200);
    expect(answer.words).toContain(
      'Could not email it (the mail server refused the address (550)): copy the link below',
    );
    expect(answer.words).not.toContain('Emailed to');
    expect(answer.token).toBeDefined();
    expect(Number(await pending('refused@example.com'))).toBe(1);
    expect((await get(`/preview?invite=${answer.token}`)).status).toBe(200);
    const scripted = await inviteByScript('refused-scripted@example.com');
    expect(scripted.status).toBe(200);
    expect(scripted.payload).toContain('"sent":false');
    expect(scripted.token).toBeDefined();
    expect(smtp.messages.length).toBe(before);
  });

  test('a mail server that is gone (nothing listens): the invitation stands, its link shown', async () => {
    await smtp.stop();
    const answer = await inviteByForm('unreachable@example.com', 'editor');
    expect(answer.status).toBe(200);
    expect(answer.words).toContain(
      'Could not email it (the mail server could not be reached): copy the link below',
    );
    expect(answer.token).toBeDefined();
    expect(Number(await pending('unreachable@example.com'))).toBe(1);
    expect((await get(`/preview?invite=${answer.token}`)).status).toBe(200);
  });

  test('each failed send is one warn line; no unexpected error, no password or token logged, nothing for Sentry', async () => {
    expect(folio.unexpectedErrors()).toEqual([]);
    const notEmailed = folio
      .logLines()
      .filter((line) => line.msg?.startsWith('invitation not emailed'));
    expect(notEmailed.map((line) => line.level)).toEqual(['warn', 'warn', 'warn']);
    const output = folio.output();
    expect(output).not.toContain(SMTP_PASSWORD);
    expect(tokens.length).toBeGreaterThanOrEqual(5);
    for (const token of tokens) expect(output).not.toContain(token);
    // The trail says which invitations were emailed (those the mail server took), by whom.
    const emailed = await db.query<{ actor_email: string; detail: string }>`
      SELECT actor_email, detail FROM audit_entries WHERE action = 'editor.invitation_emailed'
      ORDER BY id`;
    expect(emailed.map((entry) => entry.actor_email)).toEqual([
      'owner@example.com',
      'owner@example.com',
    ]);
    expect(emailed.map((entry) => JSON.parse(entry.detail).person)).toEqual([
      'mailed.person@example.com',
      'scripted@example.com',
    ]);
    // Sentry: give the SDK its moment to send anything it would, then look.
    await Bun.sleep(2_000);
    expect(
      errorEvents(sentry.envelopes).map((event) => event.exception?.values?.[0]?.value),
    ).toEqual([]);
  });
});
