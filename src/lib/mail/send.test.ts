// Sending against real sockets on loopback: a receiver that takes the mail (signing in with a
// password), one that refuses the recipient (550), a port nobody listens on, and a server that
// accepts the connection and never says a word. Each failure is an outcome in fixed words and
// one warn line that names neither the password nor anything in the message (the link's token).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { expectConsoleErrors } from '../../../tests/console-guard';
import { freePort } from '../../../tests/harness';
import { type SmtpReceiver, startSmtpReceiver } from '../../../tests/smtp-receiver';
import { failureReason, sendMail } from './send';

const SECRET = 'pa55-word-never-logged';
const TOKEN = 'tok3n-never-logged-'.padEnd(43, 'x');
const mail = {
  to: 'someone@example.com',
  subject: 'A subject',
  text: `Open https://site.example/preview?invite=${TOKEN}`,
  html: `<a href="https://site.example/preview?invite=${TOKEN}">open</a>`,
};
const from = 'folio@example.com';

describe('sendMail', () => {
  let receiver: SmtpReceiver;
  let refusing: SmtpReceiver;
  beforeAll(async () => {
    receiver = await startSmtpReceiver();
    refusing = await startSmtpReceiver({ refuseRecipients: true });
  });
  afterAll(async () => {
    await receiver?.stop();
    await refusing?.stop();
  });

  test('without a mail server configured, nothing is sent (null)', async () => {
    expect(await sendMail(mail, { what: 'test', settings: null })).toBeNull();
  });

  test('signs in with the URL’s user and password and delivers', async () => {
    const outcome = await sendMail(mail, {
      what: 'test',
      settings: { url: receiver.url(`folio:${SECRET}`), from },
    });
    expect(outcome).toEqual({ sent: true });
    expect(receiver.passwords).toContain(SECRET);
    expect(receiver.messages.at(-1)?.user).toBe('folio');
    expect(receiver.messages.at(-1)?.text).toContain(TOKEN);
  });

  test('a recipient refused (550): the reason in words, one warn line, no password or token', async () => {
    const logged = expectConsoleErrors();
    const outcome = await sendMail(mail, {
      what: 'invitation',
      settings: { url: refusing.url(`folio:${SECRET}`), from },
    });
    expect(outcome).toEqual({ sent: false, reason: 'the mail server refused the address (550)' });
    expect(refusing.passwords).toContain(SECRET);
    const lines = logged.lines();
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] as string);
    expect(line.level).toBe('warn');
    expect(line.msg).toBe('invitation not emailed: the mail server refused the address (550)');
    expect(line.responseCode).toBe(550);
    expect(line.server).toBe(`smtp://127.0.0.1:${refusing.port}`);
    for (const secret of [SECRET, TOKEN, 'folio:']) expect(lines[0]).not.toContain(secret);
  });

  test('a port nobody listens on: could not be reached, at once', async () => {
    const logged = expectConsoleErrors();
    const started = Date.now();
    const outcome = await sendMail(mail, {
      what: 'invitation',
      settings: { url: `smtp://folio:${SECRET}@127.0.0.1:${freePort()}`, from },
    });
    expect(outcome).toEqual({ sent: false, reason: 'the mail server could not be reached' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(logged.lines()).toHaveLength(1);
    expect(logged.lines()[0]).not.toContain(SECRET);
  });

  test('a server that never answers is given up on at the time limit', async () => {
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    try {
      const logged = expectConsoleErrors();
      const started = Date.now();
      const outcome = await sendMail(mail, {
        what: 'invitation',
        settings: { url: `smtp://127.0.0.1:${silent.port}`, from },
        stepTimeoutMs: 300,
        timeoutMs: 1_000,
      });
      expect(outcome).toEqual({ sent: false, reason: 'the mail server did not answer in time' });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(logged.lines()).toHaveLength(1);
    } finally {
      silent.stop(true);
    }
  });

  test('the overall limit holds even when each step is allowed longer', async () => {
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    try {
      expectConsoleErrors();
      const started = Date.now();
      const outcome = await sendMail(mail, {
        what: 'invitation',
        settings: { url: `smtp://127.0.0.1:${silent.port}`, from },
        stepTimeoutMs: 60_000,
        timeoutMs: 500,
      });
      expect(outcome).toEqual({ sent: false, reason: 'the mail server did not answer in time' });
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      silent.stop(true);
    }
  });

  test('reasons are fixed words, never the server’s text', () => {
    const quoted = Object.assign(new Error(`535 no such user folio:${SECRET}`), {
      code: 'EAUTH',
      responseCode: 535,
    });
    expect(failureReason(quoted)).toBe("the mail server refused Folio's sign-in (535)");
    expect(failureReason(new Error('odd'))).toBe('the mail server could not take it');
    expect(failureReason({ code: 'EMESSAGE', responseCode: 552 })).toBe(
      'the mail server refused the message (552)',
    );
  });
});
