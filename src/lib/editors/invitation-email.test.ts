// The invitation email as built, and as a real mail server receives it (tests/smtp-receiver.ts
// on loopback): what it says, and that a site title, inviter or address carrying CR/LF cannot
// add a header or a recipient — emails are validated before this, but the message does not
// rely on it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { expectConsoleErrors } from '../../../tests/console-guard';
import { type SmtpReceiver, startSmtpReceiver } from '../../../tests/smtp-receiver';
import { sendMail } from '../mail/send';
import { invitationEmail, oneLine } from './invitation-email';

const TOKEN = 'T'.repeat(43);
const details = {
  to: 'new.person@example.com',
  inviter: 'owner@example.com',
  siteTitle: 'The Daily Folio',
  siteAddress: 'https://news.example.com',
  role: 'editor' as const,
  link: `https://news.example.com/preview?invite=${TOKEN}`,
  expiresAt: '2026-12-03T23:30:00.000Z',
};

describe('the invitation email', () => {
  test('says who invited them, to which site and address, the role, the link and the expiry', () => {
    const mail = invitationEmail(details);
    expect(mail.to).toBe('new.person@example.com');
    expect(mail.subject).toBe('owner@example.com invited you to The Daily Folio');
    for (const part of [mail.text, mail.html]) {
      for (const words of [
        'owner@example.com has invited you',
        'The Daily Folio',
        '(https://news.example.com)',
        'as Editor',
        details.link,
        '3 December 2026 at 23:30 UTC',
        'works once',
      ])
        expect(part).toContain(words);
    }
    expect(mail.html).toContain(`<a href="${details.link}">`);
  });

  test('a title with markup is text in the HTML part', () => {
    const mail = invitationEmail({ ...details, siteTitle: '<script>alert(1)</script> & Co' });
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(mail.html).not.toContain('<script>');
  });

  test('one line: CR, LF, NUL and the Unicode line separators become a space', () => {
    expect(oneLine('a\r\nBcc: x@y.z')).toBe('a Bcc: x@y.z');
    expect(oneLine('a\u0000b\u2028c\td')).toBe('a b c d');
    expect(oneLine('x'.repeat(300), 10)).toHaveLength(10);
  });
});

describe('the invitation email through a real mail server', () => {
  let receiver: SmtpReceiver;
  beforeAll(async () => {
    receiver = await startSmtpReceiver();
  });
  afterAll(() => receiver?.stop());

  test('arrives from MAIL_FROM to the invitee, with the link in both parts', async () => {
    const outcome = await sendMail(invitationEmail(details), {
      what: 'invitation',
      settings: { url: receiver.url(), from: 'Folio <folio@example.com>' },
    });
    expect(outcome).toEqual({ sent: true });
    const mail = receiver.messages.at(-1);
    expect(mail?.envelopeFrom).toBe('folio@example.com');
    expect(mail?.envelopeTo).toEqual(['new.person@example.com']);
    const header = (name: string) =>
      mail?.headers.filter(([key]) => key === name).map(([, v]) => v);
    expect(header('from')).toEqual(['Folio <folio@example.com>']);
    expect(header('to')).toEqual(['new.person@example.com']);
    expect(mail?.text).toContain(details.link);
    expect(mail?.html).toContain(details.link);
  });

  test('CR/LF in the site title or the inviter adds no header', async () => {
    const before = receiver.messages.length;
    const outcome = await sendMail(
      invitationEmail({
        ...details,
        inviter: 'owner@example.com\r\nReply-To: thief@example.org',
        siteTitle: 'Folio\r\nBcc: thief@example.org\r\n\r\nForged body',
      }),
      { what: 'invitation', settings: { url: receiver.url(), from: 'folio@example.com' } },
    );
    expect(outcome).toEqual({ sent: true });
    const mail = receiver.messages[before];
    expect(mail?.envelopeTo).toEqual(['new.person@example.com']);
    const names = mail?.headers.map(([key]) => key) ?? [];
    expect(names).not.toContain('bcc');
    expect(names).not.toContain('reply-to');
    expect(names.filter((name) => name === 'subject')).toHaveLength(1);
    expect(mail?.raw.split('\r\n\r\n')[0]).not.toMatch(/\r\n(Bcc|Reply-To):/i);
  });

  test('CR/LF in the address adds no recipient: the server is asked for one address, and refuses it', async () => {
    const logged = expectConsoleErrors();
    const before = receiver.messages.length;
    const outcome = await sendMail(
      invitationEmail({ ...details, to: 'victim@example.com\r\nBcc: thief@example.org' }),
      { what: 'invitation', settings: { url: receiver.url(), from: 'folio@example.com' } },
    );
    expect(outcome).toEqual({ sent: false, reason: 'the mail server refused the address (501)' });
    expect(receiver.messages.length).toBe(before);
    expect(logged.lines()).toHaveLength(1);
    expect(logged.lines()[0]).toContain('"level":"warn"');
  });
});
