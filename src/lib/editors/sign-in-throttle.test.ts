import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { addEditor, credentialGeneration, removeEditor } from './accounts';
import {
  ATTEMPT_LIMITS,
  createSignInThrottle,
  issueDeviceToken,
  trustedDeviceId,
  WINDOW_MS,
} from './sign-in-throttle';

// On the run's engine (FOLIO_TEST_ENGINE).
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let now: number;
let throttle: ReturnType<typeof createSignInThrottle>;
beforeEach(async () => {
  db = await openTestDatabase();
  now = 1_700_000_000_000;
  throttle = createSignInThrottle(db, { now: () => now });
});
afterEach(async () => {
  await db.dispose();
});

const attempt = (email: string, address = '203.0.113.1', deviceId: string | null = null) => ({
  email,
  address,
  deviceId,
});

async function allowed(address: string, email: string, deviceId: string | null = null) {
  return (await throttle.reserve(attempt(email, address, deviceId))).allowed;
}

async function attemptsIn(bucket: string): Promise<number | undefined> {
  const [row] = await db.query<{ attempts: number }>`
    SELECT attempts FROM sign_in_attempts WHERE bucket = ${bucket}`;
  return row === undefined ? undefined : Number(row.attempts);
}

describe('sign-in throttle', () => {
  test('counts before the password is checked: the sixth attempt on an account is refused, from any address', async () => {
    for (let i = 0; i < ATTEMPT_LIMITS.account; i++)
      expect(await allowed(`198.51.100.${i}`, 'Ed@Example.com')).toBe(true);
    const refused = await throttle.reserve(attempt('ed@example.com', '198.51.100.99'));
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: WINDOW_MS / 1000 });
  });

  test('an address that sprays many accounts is refused after its limit', async () => {
    for (let i = 0; i < ATTEMPT_LIMITS.address; i++)
      expect(await allowed('203.0.113.1', `user${i}@example.com`)).toBe(true);
    expect(await allowed('203.0.113.1', 'another@example.com')).toBe(false);
  });

  test('simultaneous attempts cannot slip past the count', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => allowed('203.0.113.9', 'ed@example.com')),
    );
    expect(results.filter(Boolean)).toHaveLength(ATTEMPT_LIMITS.account);
  });

  test('a refused attempt counts for nothing; the window ends', async () => {
    for (let i = 0; i < 20; i++) await throttle.reserve(attempt('ed@example.com'));
    now += WINDOW_MS;
    expect(await allowed('203.0.113.1', 'ed@example.com')).toBe(true);
  });

  test('a success clears the account and gives the address its attempt back', async () => {
    for (let i = 0; i < 4; i++) await throttle.reserve(attempt('ed@example.com'));
    const last = await throttle.reserve(attempt('ed@example.com'));
    if (!last.allowed) throw new Error('expected the fifth attempt to be allowed');
    await db.transaction((q) => last.succeeded(q));
    expect(await allowed('203.0.113.1', 'ed@example.com')).toBe(true);
    expect(await attemptsIn('address:203.0.113.1')).toBe(5);
  });

  test('a trusted device is counted on its own: the account locked by others does not lock it out', async () => {
    for (let i = 0; i < 30; i++) await throttle.reserve(attempt('ed@example.com', '203.0.113.66'));
    expect(await allowed('203.0.113.66', 'ed@example.com')).toBe(false);
    expect(await allowed('203.0.113.66', 'ed@example.com', 'device-1')).toBe(true);
    // …and a device has a limit of its own.
    for (let i = 1; i < ATTEMPT_LIMITS.device; i++)
      await throttle.reserve(attempt('ed@example.com', 'x', 'device-1'));
    expect(await allowed('x', 'ed@example.com', 'device-1')).toBe(false);
  });

  test("a trusted device's success gives the address nothing back: it never took from it", async () => {
    await throttle.reserve(attempt('someone@example.com', '203.0.113.5'));
    expect(await attemptsIn('address:203.0.113.5')).toBe(1);
    for (let i = 0; i < 3; i++) {
      const trusted = await throttle.reserve(attempt('ed@example.com', '203.0.113.5', 'device-1'));
      if (trusted.allowed) await db.transaction((q) => trusted.succeeded(q));
    }
    expect(await attemptsIn('address:203.0.113.5')).toBe(1);
  });
});

describe('device cookies', () => {
  const SECRET = 'a-secret-that-is-at-least-thirty-two-characters';
  test('prove a device for the email they were issued to, and nothing else', () => {
    const token = issueDeviceToken(SECRET, 'Ed@Example.com', 'gen-1');
    const id = trustedDeviceId(SECRET, token, 'ed@example.com', 'gen-1');
    expect(id).toMatch(/^[\w-]{16}$/);
    expect(trustedDeviceId(SECRET, token, 'other@example.com', 'gen-1')).toBeNull();
    expect(
      trustedDeviceId('another-secret-that-is-long-enough-too', token, 'ed@example.com', 'gen-1'),
    ).toBeNull();
    expect(trustedDeviceId(SECRET, `${token}x`, 'ed@example.com', 'gen-1')).toBeNull();
    expect(trustedDeviceId(SECRET, undefined, 'ed@example.com', 'gen-1')).toBeNull();
    expect(issueDeviceToken(SECRET, 'ed@example.com', 'gen-1')).not.toBe(token);
  });

  test('stop proving anything once the password is reset or the editor removed', async () => {
    const generation = () => credentialGeneration(db.query, 'ed@example.com');
    // The first is the site's Owner, who is never removed: ed comes after.
    await addEditor(db, 'owner@example.com', 'the first passphrase');
    await addEditor(db, 'ed@example.com', 'the first passphrase');
    const token = issueDeviceToken(SECRET, 'ed@example.com', (await generation()) ?? '');
    expect(trustedDeviceId(SECRET, token, 'ed@example.com', await generation())).not.toBeNull();
    await addEditor(db, 'ed@example.com', 'the second passphrase');
    expect(trustedDeviceId(SECRET, token, 'ed@example.com', await generation())).toBeNull();
    const renewed = issueDeviceToken(SECRET, 'ed@example.com', (await generation()) ?? '');
    expect(trustedDeviceId(SECRET, renewed, 'ed@example.com', await generation())).not.toBeNull();
    await removeEditor(db, 'ed@example.com');
    expect(await generation()).toBeNull();
    expect(trustedDeviceId(SECRET, renewed, 'ed@example.com', null)).toBeNull();
  });
});
