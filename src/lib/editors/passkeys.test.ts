// Passkeys (issue 28) against a software authenticator made here (P-256, "none" attestation,
// as a security key answers): registered, then signing in with no password; and every answer
// the server must refuse in words — a replayed one, one from another origin, one made for
// another relying party, one whose challenge expired or was never handed out.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { openTestDatabase } from '../../../tests/databases';
import { addEditor, type Editor } from './accounts';
import {
  CHALLENGE_SECONDS,
  listPasskeys,
  PASSKEY_REFUSALS,
  registerPasskey,
  registrationOptions,
  relyingParty,
  removePasskey,
  signInOptions,
  verifyPasskeySignIn,
} from './passkeys';

const b64 = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** A roaming authenticator with one discoverable credential. */
class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private counter = 0;
  userHandle = '';
  /** Whether it verifies its user (a PIN, a fingerprint): a plain security key does not. */
  verifiesUser = true;

  private coseKey(): Uint8Array {
    const jwk = (this.keys.publicKey as KeyObject).export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
  }

  private authData(rpId: string, attested: boolean): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(++this.counter);
    // UP (0x01), UV (0x04), and AT (0x40) when a credential is attested.
    const flags = Buffer.from([(attested ? 0x40 : 0) | 0x01 | (this.verifiesUser ? 0x04 : 0)]);
    const parts = [sha256(rpId), flags, count];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), length, this.credentialId, Buffer.from(this.coseKey()));
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin: string): string {
    return b64(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
  }

  register(
    options: { challenge: string; user: { id: string } },
    { origin, rpId }: { origin: string; rpId: string },
  ) {
    this.userHandle = options.user.id;
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', this.authData(rpId, true)],
      ]) as never,
    );
    return {
      id: b64(this.credentialId),
      rawId: b64(this.credentialId),
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, origin),
        attestationObject: b64(attestationObject),
        transports: ['usb' as const],
      },
    };
  }

  assert(challenge: string, { origin, rpId }: { origin: string; rpId: string }) {
    const authenticatorData = this.authData(rpId, false);
    const clientDataJSON = this.clientData('webauthn.get', challenge, origin);
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(Buffer.from(clientDataJSON, 'base64url'))]),
      this.keys.privateKey,
    );
    return {
      id: b64(this.credentialId),
      rawId: b64(this.credentialId),
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON,
        authenticatorData: b64(authenticatorData),
        signature: b64(signature),
        userHandle: this.userHandle,
      },
    };
  }
}

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let editor: Editor;
const rp = relyingParty();
const site = { origin: rp.origin, rpId: rp.id };

beforeEach(async () => {
  db = await openTestDatabase();
  editor = await addEditor(db, 'keys@example.com', 'correct horse battery', { role: 'author' });
});
afterEach(async () => {
  await db.dispose();
});

async function registered(): Promise<SoftwareAuthenticator> {
  const device = new SoftwareAuthenticator();
  const options = await registrationOptions(db, editor);
  expect(options.rp.id).toBe(rp.id);
  expect(options.authenticatorSelection?.residentKey).toBe('required');
  expect(await registerPasskey(db, editor, 'Security key', device.register(options, site))).toEqual(
    {
      ok: true,
    },
  );
  return device;
}

describe('passkeys', () => {
  test('registered under a name, then sign in with no password; the counter moves on', async () => {
    const device = await registered();
    expect((await listPasskeys(db.query, editor.id)).map((p) => p.name)).toEqual(['Security key']);
    const { challenge, allowCredentials } = await signInOptions(db);
    // Discoverable: the options name no account.
    expect(allowCredentials ?? []).toEqual([]);
    const signedIn = await verifyPasskeySignIn(db, device.assert(challenge, site));
    expect(signedIn).toEqual({
      ok: true,
      editor: { id: editor.id, email: editor.email, role: editor.role },
    });
    const [row] = await db.query<{ counter: number | string; last_used_at: string | null }>`
      SELECT counter, last_used_at FROM editor_passkeys`;
    expect(Number(row?.counter)).toBe(2);
    expect(row?.last_used_at).not.toBeNull();
  });

  test('a replayed answer is refused: its challenge was used up by the first', async () => {
    const device = await registered();
    const { challenge } = await signInOptions(db);
    const answer = device.assert(challenge, site);
    expect((await verifyPasskeySignIn(db, answer)).ok).toBe(true);
    expect(await verifyPasskeySignIn(db, answer)).toEqual({ ok: false, refusal: 'challenge' });
    expect(PASSKEY_REFUSALS.challenge).toContain('expired or was already used');
    // A challenge the server never made, and one of a registration, are refused the same way.
    expect(await verifyPasskeySignIn(db, device.assert(b64(randomBytes(32)), site))).toEqual({
      ok: false,
      refusal: 'challenge',
    });
    const registration = await registrationOptions(db, editor);
    expect(await verifyPasskeySignIn(db, device.assert(registration.challenge, site))).toEqual({
      ok: false,
      refusal: 'challenge',
    });
  });

  test('an answer from another origin, or made for another relying party, is refused', async () => {
    const device = await registered();
    const phished = await signInOptions(db);
    expect(
      await verifyPasskeySignIn(
        db,
        device.assert(phished.challenge, { origin: 'https://folio.example.evil', rpId: rp.id }),
      ),
    ).toEqual({ ok: false, refusal: 'origin' });
    const elsewhere = await signInOptions(db);
    expect(
      await verifyPasskeySignIn(
        db,
        device.assert(elsewhere.challenge, { origin: rp.origin, rpId: 'evil.example' }),
      ),
    ).toEqual({ ok: false, refusal: 'relying-party', email: editor.email });
    // Each refusal used its challenge up: the same challenge, answered rightly now, is refused.
    expect(await verifyPasskeySignIn(db, device.assert(elsewhere.challenge, site))).toEqual({
      ok: false,
      refusal: 'challenge',
    });
    // Registration is held to the same origin and relying party.
    const other = new SoftwareAuthenticator();
    const options = await registrationOptions(db, editor);
    expect(
      await registerPasskey(
        db,
        editor,
        'Phished',
        other.register(options, { origin: 'https://evil.example', rpId: rp.id }),
      ),
    ).toEqual({ ok: false, refusal: 'origin' });
  });

  test('a challenge expires; a removed passkey, or a suspended person, signs nobody in', async () => {
    const device = await registered();
    const now = Date.now();
    const late = await signInOptions(db, now);
    expect(
      await verifyPasskeySignIn(
        db,
        device.assert(late.challenge, site),
        now + CHALLENGE_SECONDS * 1000 + 1,
      ),
    ).toEqual({ ok: false, refusal: 'challenge' });
    await db.query`UPDATE editors SET suspended_at = ${new Date(now).toISOString()} WHERE id = ${editor.id}`;
    const suspended = await signInOptions(db);
    // Found, then refused: whose passkey it was is said, for the audit trail's entry.
    expect(await verifyPasskeySignIn(db, device.assert(suspended.challenge, site))).toEqual({
      ok: false,
      refusal: 'suspended',
      email: editor.email,
    });
    await db.query`UPDATE editors SET suspended_at = NULL WHERE id = ${editor.id}`;
    const [passkey] = await listPasskeys(db.query, editor.id);
    expect(await removePasskey(db.query, editor.id + 1, passkey?.id ?? '')).toBe(false);
    expect(await removePasskey(db.query, editor.id, passkey?.id ?? '')).toBe(true);
    const removed = await signInOptions(db);
    expect(await verifyPasskeySignIn(db, device.assert(removed.challenge, site))).toEqual({
      ok: false,
      refusal: 'unknown',
    });
  });

  test('a passkey must verify its user (PIN, fingerprint): without, neither added nor signed in', async () => {
    const device = await registered();
    device.verifiesUser = false;
    const { challenge } = await signInOptions(db);
    expect(await verifyPasskeySignIn(db, device.assert(challenge, site))).toEqual({
      ok: false,
      refusal: 'user-verification',
      email: editor.email,
    });
    const plainKey = new SoftwareAuthenticator();
    plainKey.verifiesUser = false;
    const options = await registrationOptions(db, editor);
    expect(
      await registerPasskey(db, editor, 'Plain key', plainKey.register(options, site)),
    ).toEqual({
      ok: false,
      refusal: 'user-verification',
    });
  });
});
