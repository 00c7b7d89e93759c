// The authenticator app's second factor (issue 28) on the run's engine: codes checked, each step
// used once (and none older after a newer one), recovery codes shown once and used up, and a
// waiting sign-in that a few wrong codes end.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { addEditor } from './accounts';
import {
  countWrongCode,
  isLastRequiredFactor,
  mustSetUpSecondFactor,
  PENDING_SIGN_IN_ATTEMPTS,
  pendingSignIn,
  requireSecondFactorFrom,
  startPendingSignIn,
} from './second-factor';
import {
  confirmTotp,
  offerTotpSecret,
  RECOVERY_CODE_COUNT,
  removeTotp,
  spendRecoveryCode,
  spendTotpCode,
  totpCode,
  totpStatus,
  totpStep,
  totpUri,
} from './totp';

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let editorId: number;
beforeEach(async () => {
  db = await openTestDatabase();
  editorId = (await addEditor(db, 'two@example.com', 'correct horse battery', { role: 'editor' }))
    .id;
});
afterEach(async () => {
  await db.dispose();
});

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);

async function setUp(now = T0): Promise<{ secret: string; codes: string[] }> {
  const secret = await db.transaction((q) => offerTotpSecret(q, editorId));
  if (!secret) throw new Error('no secret offered');
  const codes = await db.transaction((q) => confirmTotp(q, editorId, totpCode(secret, now), now));
  if (!codes) throw new Error('not confirmed');
  return { secret, codes };
}

describe('TOTP codes', () => {
  test('a code is its step’s, a step early or late too, and nothing else', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const step = Math.floor(T0 / 30_000);
    expect(totpStep(secret, totpCode(secret, T0), T0)).toBe(step);
    expect(totpStep(secret, totpCode(secret, T0 - 30_000), T0)).toBe(step - 1);
    expect(totpStep(secret, totpCode(secret, T0 + 30_000), T0)).toBe(step + 1);
    expect(totpStep(secret, totpCode(secret, T0 - 90_000), T0)).toBeNull();
    // As an app shows it ("123 456") is the same code; letters, or five digits, are none.
    const code = totpCode(secret, T0);
    expect(totpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, T0)).toBe(step);
    expect(totpStep(secret, 'abcdef', T0)).toBeNull();
    expect(totpStep(secret, code.slice(1), T0)).toBeNull();
    expect(totpUri(secret, 'two@example.com')).toStartWith(
      'otpauth://totp/Folio:two%40example.com?',
    );
  });

  test('set-up is confirmed only by the app’s code; then each step signs in once', async () => {
    const secret = await db.transaction((q) => offerTotpSecret(q, editorId));
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await totpStatus(db.query, editorId)).toEqual({
      confirmed: false,
      pendingSecret: secret,
      recoveryCodesLeft: 0,
    });
    // Not yet on: a code is no sign-in.
    expect(await spendTotpCode(db.query, editorId, totpCode(secret as string, T0), T0)).toBe(
      'wrong',
    );
    expect(await db.transaction((q) => confirmTotp(q, editorId, '000000', T0))).toBeNull();
    const codes = await db.transaction((q) =>
      confirmTotp(q, editorId, totpCode(secret as string, T0), T0),
    );
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    // The confirming code's step is used: the same code cannot sign in.
    expect(await spendTotpCode(db.query, editorId, totpCode(secret as string, T0), T0)).toBe(
      'reused',
    );
    const later = T0 + 60_000;
    expect(await spendTotpCode(db.query, editorId, totpCode(secret as string, later), later)).toBe(
      'accepted',
    );
    expect(await spendTotpCode(db.query, editorId, totpCode(secret as string, later), later)).toBe(
      'reused',
    );
    // A code of the step before, still in the window, is older than one used: refused too.
    expect(
      await spendTotpCode(db.query, editorId, totpCode(secret as string, later - 30_000), later),
    ).toBe('reused');
    expect(await spendTotpCode(db.query, editorId, '123456', later + 30_000)).toBe('wrong');
    // Another offer is refused while the app is on.
    expect(await db.transaction((q) => offerTotpSecret(q, editorId))).toBeNull();
  });

  test('two requests racing with one code: exactly one signs in', async () => {
    const { secret } = await setUp();
    const at = T0 + 120_000;
    const code = totpCode(secret, at);
    const results = await Promise.all(
      [1, 2, 3].map(() => db.transaction((q) => spendTotpCode(q, editorId, code, at))),
    );
    expect(results.filter((result) => result === 'accepted')).toHaveLength(1);
    expect(results.filter((result) => result === 'reused')).toHaveLength(2);
  });

  test('recovery codes: stored hashed, each used once, typed in any case with or without dash', async () => {
    const { codes } = await setUp();
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await db.query<{
      code_hash: string;
    }>`SELECT code_hash FROM editor_recovery_codes`;
    expect(stored.map((row) => row.code_hash).some((hash) => codes.includes(hash))).toBe(false);
    const [first = '', second = ''] = codes;
    expect(await spendRecoveryCode(db.query, editorId, first.toUpperCase().replace('-', ' '))).toBe(
      true,
    );
    expect(await spendRecoveryCode(db.query, editorId, first)).toBe(false);
    expect(await spendRecoveryCode(db.query, editorId, 'aaaaa-aaaaa')).toBe(false);
    expect((await totpStatus(db.query, editorId)).recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
    // Turned off: the codes go with it.
    expect(await db.transaction((q) => removeTotp(q, editorId))).toBe(true);
    expect(await spendRecoveryCode(db.query, editorId, second)).toBe(false);
    expect(await totpStatus(db.query, editorId)).toEqual({
      confirmed: false,
      pendingSecret: null,
      recoveryCodesLeft: 0,
    });
  });
});

describe('the second step and the site’s rule', () => {
  test('a waiting sign-in is named by its cookie only, and a few wrong codes end it', async () => {
    await setUp();
    const token = await db.transaction((q) => startPendingSignIn(q, editorId, '/preview/about'));
    const [row] = await db.query<{ id_hash: string }>`SELECT id_hash FROM pending_sign_ins`;
    expect(row?.id_hash).not.toBe(token);
    expect(await pendingSignIn(db.query, token)).toMatchObject({
      email: 'two@example.com',
      next: '/preview/about',
      factors: { totp: true, passkeys: 0 },
    });
    expect(await pendingSignIn(db.query, 'x'.repeat(43))).toBeNull();
    for (let left = PENDING_SIGN_IN_ATTEMPTS - 1; left >= 0; left--)
      expect(await db.transaction((q) => countWrongCode(q, token))).toBe(left);
    expect(await pendingSignIn(db.query, token)).toBeNull();
    // And expires.
    const other = await db.transaction((q) => startPendingSignIn(q, editorId, '/preview', T0));
    expect(await pendingSignIn(db.query, other, T0 + 6 * 60_000)).toBeNull();
  });

  test('the rule covers roles at or above its level; the last factor of one it covers stays', async () => {
    const person = { id: editorId, role: 'editor' as const };
    expect(await mustSetUpSecondFactor(db.query, person)).toBe(false);
    await db.transaction((q) => requireSecondFactorFrom(q, 'administrator'));
    expect(await mustSetUpSecondFactor(db.query, person)).toBe(false);
    await db.transaction((q) => requireSecondFactorFrom(q, 'author'));
    expect(await mustSetUpSecondFactor(db.query, person)).toBe(true);
    await setUp();
    expect(await mustSetUpSecondFactor(db.query, person)).toBe(false);
    expect(await isLastRequiredFactor(db.query, person, 'totp')).toBe(true);
    await db.transaction((q) => requireSecondFactorFrom(q, null));
    expect(await isLastRequiredFactor(db.query, person, 'totp')).toBe(false);
  });
});
