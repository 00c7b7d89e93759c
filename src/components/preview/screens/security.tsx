// Owns /preview?security (issue 28): one's own sign-in — passkeys (listed, named, removed, a new
// one added) and the authenticator app (set up with a QR code, confirmed with a code, recovery
// codes, turned off) — and, for whoever may change site settings, the site's rule: which roles
// must have a second factor. Someone the rule covers who has none lands here after signing in.
// Its controls show only to someone who typed their password lately (decision 0042, "Confirming
// it is you"); otherwise it asks for it first.
import 'server-only';
import { encode } from 'uqr';
import {
  removeOwnPasskey,
  renameOwnPasskey,
  setSecondFactorRule,
  startTotpSetUp,
  turnOffTotp,
} from '../../../lib/editor/actions/security';
import type { EditorSession } from '../../../lib/editor/guard';
import { CONFIRMATION_MINUTES, confirmedRecently } from '../../../lib/editors/confirmation';
import { PASSKEY_NAME_MAX, relyingParty } from '../../../lib/editors/passkeys';
import { can, ROLE_LABELS, ROLES } from '../../../lib/editors/permissions';
import { securityOverview } from '../../../lib/editors/second-factor';
import { totpUri } from '../../../lib/editors/totp';
import { PREVIEW_DASHBOARD } from '../../../lib/http/routes';
import { ConfirmIdentityForm } from '../confirm-identity-form';
import { LocalTime } from '../local-time';
import { PasskeyAdd } from '../passkey-add';
import { TotpCodesForm } from '../totp-codes-form';
import type { ScreenProps } from './asked';

/** The screen's notices, by the fixed key its actions land with. */
const NOTICES: Record<string, { text: string; alert?: boolean }> = {
  'second-factor-required': {
    text: 'This site asks people in your role for a second factor. Add a passkey or set up an authenticator app before you go on.',
    alert: true,
  },
  'passkey-added': { text: 'Passkey added. You can sign in with it now, with no password.' },
  'passkey-renamed': { text: 'Passkey renamed.' },
  'passkey-removed': { text: 'Passkey removed: it no longer signs you in.' },
  'passkey-gone': { text: 'That passkey was removed already.' },
  'passkey-name-empty': { text: 'A passkey needs a name: nothing was changed.', alert: true },
  'totp-offered': {
    text: 'Scan the code with your authenticator app, then type the code it shows.',
  },
  'totp-on': { text: 'The authenticator app is set up already.' },
  'totp-off': { text: 'The authenticator app is off, and its recovery codes no longer work.' },
  'totp-gone': { text: 'The authenticator app was off already.' },
  'last-factor': {
    text: 'This site asks people in your role for a second factor, and that is your last one: add another first.',
    alert: true,
  },
  'rule-saved': {
    text: 'Saved. Everyone it covers who has no second factor yet is asked to set one up, and until they do, this screen is the only one they can open.',
  },
  'rule-covers-you': {
    text: 'Not saved: the rule would cover you too, and you have no second factor yet. Add a passkey or set up an authenticator app first, then save the rule.',
    alert: true,
  },
  'confirm-first': {
    text: `Nothing was changed: confirm it is you first. It is asked again ${CONFIRMATION_MINUTES} minutes after you last typed your password.`,
    alert: true,
  },
  confirmed: {
    text: `Thank you. For the next ${CONFIRMATION_MINUTES} minutes you can change how you sign in.`,
  },
  forbidden: { text: 'Only Administrators may change who needs a second factor.', alert: true },
  busy: { text: 'Folio is busy: nothing was changed. Try again in a moment.', alert: true },
  unavailable: { text: 'Folio cannot reach its database: nothing was changed.', alert: true },
};

/** The otpauth:// address as a QR code: one SVG path of the dark modules, on a quiet zone. */
function QrCode({ text }: { text: string }) {
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      className="qr-code"
      viewBox={`0 0 ${size} ${size}`}
      width={Math.max(200, size * 5)}
      height={Math.max(200, size * 5)}
      role="img"
      aria-label="QR code for your authenticator app"
      shapeRendering="crispEdges"
    >
      {/* Dark on white in both themes: scanners read a QR code that way round. */}
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

export async function SecurityScreen({ asked: { notice, editor } }: ScreenProps) {
  if (!editor) return null;
  const person = editor.editor;
  const overview = await securityOverview(person);
  const said = notice ? NOTICES[notice] : undefined;
  return (
    <>
      <title>Sign-in security · Folio preview</title>
      <h1>Sign-in security</h1>
      {said ? (
        <p role={said.alert ? 'alert' : 'status'} className={said.alert ? 'form-error' : 'notice'}>
          {said.text}
        </p>
      ) : null}
      {overview.mustSetUp && notice !== 'second-factor-required' ? (
        <p role="alert" className="form-error">
          {NOTICES['second-factor-required']?.text}
        </p>
      ) : null}
      <p>
        <a href={PREVIEW_DASHBOARD}>Back to the pages</a>
      </p>
      {confirmedRecently(editor) ? (
        <SecurityControls editor={editor} overview={overview} />
      ) : (
        <section className="security-section" aria-labelledby="confirm-title">
          <h2 id="confirm-title">Confirm it is you</h2>
          <p>
            Type your password before you change how you sign in: someone at your computer while you
            are away cannot then add their own passkey or turn your second factor off. It is asked
            again {CONFIRMATION_MINUTES} minutes after you last typed it (signing in counts).
          </p>
          <ConfirmIdentityForm email={person.email} />
        </section>
      )}
    </>
  );
}

/** What changes how one signs in: shown only after a recent confirmation that it is them. */
function SecurityControls({
  editor,
  overview,
}: {
  editor: EditorSession;
  overview: Awaited<ReturnType<typeof securityOverview>>;
}) {
  const person = editor.editor;
  const rp = relyingParty();
  const secret = overview.totp.pendingSecret;
  return (
    <>
      <section className="security-section" aria-labelledby="passkeys-title">
        <h2 id="passkeys-title">Passkeys</h2>
        <p>
          A passkey signs you in with your device’s lock (fingerprint, face, PIN) instead of a
          password, and cannot be phished. They work at <code>{rp.origin}</code>.
        </p>
        {overview.passkeys.length === 0 ? (
          <p>You have no passkeys yet.</p>
        ) : (
          <ul className="passkey-list">
            {overview.passkeys.map((passkey) => (
              <li key={passkey.id}>
                <form action={renameOwnPasskey} className="inline-form">
                  <input type="hidden" name="id" value={passkey.id} />
                  <label>
                    <span className="visually-hidden">Name of this passkey</span>
                    <input
                      name="name"
                      type="text"
                      required
                      maxLength={PASSKEY_NAME_MAX}
                      defaultValue={passkey.name}
                    />
                  </label>
                  <button type="submit">Rename</button>
                </form>
                <p className="hint">
                  Added <LocalTime iso={passkey.createdAt} />
                  {passkey.lastUsedAt ? (
                    <>
                      {' · last used '}
                      <LocalTime iso={passkey.lastUsedAt} />
                    </>
                  ) : (
                    ' · never used yet'
                  )}
                </p>
                <form action={removeOwnPasskey} className="inline-form">
                  <input type="hidden" name="id" value={passkey.id} />
                  <input type="hidden" name="name" value={passkey.name} />
                  <button type="submit" className="danger">
                    Remove “{passkey.name}”
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
        <PasskeyAdd nameMax={PASSKEY_NAME_MAX} />
      </section>

      <section className="security-section" aria-labelledby="totp-title">
        <h2 id="totp-title">Authenticator app</h2>
        {overview.totp.confirmed ? (
          <p>
            On: signing in with your password also asks for the app’s code.{' '}
            {overview.totp.recoveryCodesLeft} recovery code(s) left.
          </p>
        ) : secret ? (
          <div>
            <p>
              Scan this with your authenticator app (or type the key in), then type the 6-digit code
              it shows.
            </p>
            <QrCode text={totpUri(secret, person.email)} />
            <p>
              Key: <code className="totp-secret">{secret.match(/.{1,4}/g)?.join(' ')}</code>
            </p>
          </div>
        ) : (
          <p>
            An app on your phone (any that reads TOTP codes) shows a new code every 30 seconds;
            signing in with your password then asks for it.
          </p>
        )}
        {/* In the same place whatever the app's state: its answer (the codes) outlives the
            screen turning from "set up" to "on" around it. */}
        {overview.totp.confirmed || secret ? (
          <TotpCodesForm key="totp-codes" confirmed={overview.totp.confirmed} />
        ) : null}
        {overview.totp.confirmed ? (
          <form action={turnOffTotp} className="inline-form">
            <button type="submit" className="danger">
              Turn off the authenticator app
            </button>
          </form>
        ) : secret ? null : (
          <form action={startTotpSetUp} className="inline-form">
            <button type="submit">Set up an authenticator app</button>
          </form>
        )}
      </section>

      {can(person, 'settings.edit') ? (
        <section className="security-section" aria-labelledby="rule-title">
          <h2 id="rule-title">Who must have a second factor</h2>
          <form action={setSecondFactorRule} className="settings-form">
            <label>
              Require a passkey or an authenticator app for
              <select name="least" defaultValue={overview.requiredFrom ?? ''}>
                <option value="">Nobody</option>
                {ROLES.map((role) => (
                  <option key={role} value={role}>
                    {role === 'owner' ? 'The Owner' : `${ROLE_LABELS[role]}s and above`}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="primary">
              Save the rule
            </button>
          </form>
        </section>
      ) : null}
    </>
  );
}
