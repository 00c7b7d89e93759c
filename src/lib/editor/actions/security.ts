'use server';
// Owns the actions of stronger sign-in (issue 28): the sign-in's second step and passkey
// sign-in (no editor yet, so no guard: like signIn, they read their input with the shared
// schemas), and the security screen's (one's own passkeys and authenticator app; the site's
// rule, for whoever may change site settings), all through the one wrapper and guard.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { unstable_redirect as redirect } from 'waku/router/server';
import { getDatabase } from '../../data/db';
import { confirmIdentity } from '../../editors/confirmation';
import {
  PASSKEY_NAME_MAX,
  PASSKEY_REFUSALS,
  registerPasskey,
  registrationOptions,
  removePasskey,
  renamePasskey,
  signInOptions,
} from '../../editors/passkeys';
import { isRole } from '../../editors/permissions';
import {
  factorsOf,
  hasSecondFactor,
  isLastRequiredFactor,
  isRequiredOf,
  requireSecondFactorFrom,
} from '../../editors/second-factor';
import { cancelSecondStep, completeSecondStep, signInWithPasskey } from '../../editors/session';
import {
  confirmTotp,
  offerTotpSecret,
  removeTotp,
  replaceRecoveryCodes,
  totpStatus,
} from '../../editors/totp';
import { SECURITY_SCREEN } from '../../http/routes';
import { siteOrigin } from '../../http/site-url';
import { badRequest } from '../../observability/request-errors';
import { editorCall, editorCommand, editorForm, readCall, readForm, refuseForm } from '../action';
import {
  addPasskeyCallSchema,
  type ConfirmIdentityState,
  confirmIdentityFormSchema,
  type PasskeyCallState,
  passkeyFormSchema,
  passkeySignInCallSchema,
  type SecondStepState,
  secondFactorRuleFormSchema,
  secondStepFormSchema,
  type TotpCodesState,
  totpCodeFormSchema,
} from '../forms';
import { CHANGE_OWN_SIGN_IN, OWN_SIGN_IN } from '../guard';
import { landingAfterSignIn } from '../landing';

/** The second step of a password sign-in: a code from the app, or a recovery code. */
export async function submitSecondStep(
  _previous: SecondStepState,
  input: FormData,
): Promise<SecondStepState> {
  const { code } = readForm(secondStepFormSchema, input);
  const outcome = await completeSecondStep(code);
  if (outcome.ok) redirect(await landingAfterSignIn(outcome.editor, outcome.next), 303);
  if (outcome.reason === 'busy' || outcome.reason === 'unavailable') {
    refuseForm(503);
    return {
      error: 'Folio cannot check the code right now. Nothing was checked; try again in a moment.',
    };
  }
  if (outcome.reason === 'throttled') {
    refuseForm(429);
    const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
    return { error: `Too many codes tried. Try again in ${minutes} minute(s).` };
  }
  // Nothing waits any more (expired, started over, or too many wrong codes): the password's
  // form again, saying why — the code's form, where a state would show, is no longer there.
  if (outcome.reason === 'expired') redirect('/preview?notice=second-step-ended', 303);
  refuseForm(401);
  if (outcome.reason === 'reused')
    return {
      error: 'That code was used already. Wait for the app to show the next one, then enter it.',
    };
  const attemptsLeft = 'attemptsLeft' in outcome ? outcome.attemptsLeft : 0;
  if (attemptsLeft === 0) redirect('/preview?notice=second-step-ended', 303);
  return { error: `That code is not right. ${attemptsLeft} attempt(s) left.` };
}

/** "Start over" on the second step. */
export async function startSignInOver(_input: FormData): Promise<void> {
  await cancelSecondStep();
  redirect(new URL('/preview', siteOrigin()), 303);
}

/** Options for "Sign in with a passkey" (a challenge the server keeps). */
export async function passkeySignInOptions() {
  return signInOptions(await getDatabase());
}

/** Signs in with a passkey's answer; the page then goes where it answers. */
export async function passkeySignIn(input: unknown): Promise<PasskeyCallState> {
  const { answer, next } = readCall(
    passkeySignInCallSchema,
    input,
    'This action takes a passkey answer.',
  );
  // Its shape is the library's: the schema checked every field it reads, and the library
  // refuses (in words, 'invalid') one that lacks what a sign-in needs.
  const outcome = await signInWithPasskey(answer as AuthenticationResponseJSON);
  if (!outcome.ok) {
    refuseForm(outcome.reason ? 503 : 401);
    return { error: outcome.message };
  }
  return { next: (await landingAfterSignIn(outcome.editor, next)).href };
}

type RegistrationOptionsState = {
  error?: string;
  options?: PublicKeyCredentialCreationOptionsJSON;
};

/** A new passkey's options, for the signed-in person. */
export const passkeyRegistrationOptions = editorCall({
  read: () => ({}),
  // One's own sign-in: anyone signed in manages their own (nothing of the table is asked),
  // having typed their password lately.
  may: () => [CHANGE_OWN_SIGN_IN],
  refused: (_input, { message }): RegistrationOptionsState => ({ error: message }),
  run: async (_input, editor): Promise<RegistrationOptionsState> => ({
    options: await registrationOptions(await getDatabase(), editor.editor),
  }),
});

function passkeyName(name: string): string {
  return name.replace(/\s+/g, ' ').trim().slice(0, PASSKEY_NAME_MAX);
}

/** Keeps a new passkey under the name typed. */
export const addPasskey = editorCall({
  read: (input) => readCall(addPasskeyCallSchema, input, 'This action takes a passkey answer.'),
  may: () => [CHANGE_OWN_SIGN_IN],
  refused: (_input, { message }): PasskeyCallState => ({ error: message }),
  run: async ({ answer, name }, editor): Promise<PasskeyCallState> => {
    const db = await getDatabase();
    const kept = await registerPasskey(
      db,
      editor.editor,
      passkeyName(name) || 'Passkey',
      // As for sign-in: the schema checked its shape, the library the rest.
      answer as RegistrationResponseJSON,
    );
    if (!kept.ok) {
      refuseForm(422);
      return { error: PASSKEY_REFUSALS[kept.refusal] };
    }
    return { next: `${SECURITY_SCREEN}&notice=passkey-added` };
  },
});

const land = async (_input: unknown, notice: string): Promise<never> =>
  redirect(`${SECURITY_SCREEN}&notice=${notice}`, 303);

/** Renames one of one's own passkeys. */
export const renameOwnPasskey = editorCommand({
  read: (input) => readForm(passkeyFormSchema, input),
  may: () => [OWN_SIGN_IN],
  run: async ({ id, name }, editor) => {
    const cleaned = passkeyName(name);
    if (!cleaned) return 'passkey-name-empty';
    const db = await getDatabase();
    const renamed = await db.transaction((q) => renamePasskey(q, editor.editor.id, id, cleaned));
    return renamed ? 'passkey-renamed' : 'passkey-gone';
  },
  land,
});

/** Removes one of one's own passkeys, unless the site's rule needs it (the last factor). */
export const removeOwnPasskey = editorCommand({
  read: (input) => readForm(passkeyFormSchema, input),
  may: () => [CHANGE_OWN_SIGN_IN],
  run: async ({ id }, editor) => {
    const db = await getDatabase();
    return db.transaction(async (q) => {
      if (await isLastRequiredFactor(q, editor.editor, 'passkey')) return 'last-factor';
      return (await removePasskey(q, editor.editor.id, id)) ? 'passkey-removed' : 'passkey-gone';
    });
  },
  land,
});

/** Offers a new authenticator app secret (the screen shows its QR code). */
export const startTotpSetUp = editorCommand({
  read: () => ({}),
  may: () => [CHANGE_OWN_SIGN_IN],
  run: async (_input, editor) => {
    const db = await getDatabase();
    const secret = await db.transaction((q) => offerTotpSecret(q, editor.editor.id));
    return secret ? 'totp-offered' : 'totp-on';
  },
  land,
});

/**
 * Confirms the app with a code ('confirm'), or makes ten new recovery codes ('renew': the old
 * ones stop working); either answers with the codes, shown once.
 */
export const totpCodes = editorForm({
  read: (input) => readForm(totpCodeFormSchema, input),
  may: () => [CHANGE_OWN_SIGN_IN],
  refused: (_input, { message }): TotpCodesState => ({ error: message }),
  run: async ({ code, intent }, editor): Promise<TotpCodesState> => {
    const db = await getDatabase();
    const id = editor.editor.id;
    if (intent === 'renew') {
      const codes = await db.transaction(async (q) =>
        (await totpStatus(q, id)).confirmed ? replaceRecoveryCodes(q, id) : null,
      );
      if (codes) return { recoveryCodes: codes };
      refuseForm(409);
      return { error: 'The authenticator app is not set up, so there are no recovery codes.' };
    }
    const codes = await db.transaction((q) => confirmTotp(q, id, code));
    if (codes) return { recoveryCodes: codes };
    refuseForm(422);
    return {
      error:
        'That code is not the one the app shows. Check the app added this account, then type its current code.',
    };
  },
});

/** Turns the app off, unless the site's rule needs it (the last factor). */
export const turnOffTotp = editorCommand({
  read: () => ({}),
  may: () => [CHANGE_OWN_SIGN_IN],
  run: async (_input, editor) => {
    const db = await getDatabase();
    return db.transaction(async (q) => {
      if (await isLastRequiredFactor(q, editor.editor, 'totp')) return 'last-factor';
      return (await removeTotp(q, editor.editor.id)) ? 'totp-off' : 'totp-gone';
    });
  },
  land,
});

/** The site's rule: every role at or above the one chosen must have a second factor. */
export const setSecondFactorRule = editorCommand({
  read: (input) => {
    const { least } = readForm(secondFactorRuleFormSchema, input);
    if (least !== '' && !isRole(least)) throw badRequest('Choose a role, or nobody.');
    return { least: least === '' ? null : least };
  },
  may: () => [{ action: 'settings.edit' }],
  run: async ({ least }, editor) => {
    const db = await getDatabase();
    const rule = isRole(least) ? least : null;
    return db.transaction(async (q) => {
      // Walk-through (issue 28): an Owner with no factor saved a rule covering themselves and
      // could then change nothing, the rule included, until they set one up. Theirs first.
      if (
        isRequiredOf(editor.editor.role, rule) &&
        !hasSecondFactor(await factorsOf(q, editor.editor.id))
      )
        return 'rule-covers-you';
      await requireSecondFactorFrom(q, rule);
      return 'rule-saved';
    });
  },
  land,
});

/**
 * "Confirm it is you": the password typed again, so the screen's controls (and the actions
 * behind them) work for the next ten minutes. Counted by the sign-in throttle; a wrong one is
 * refused in words and left in the audit trail.
 */
export const confirmItIsYou = editorForm({
  read: (input) => readForm(confirmIdentityFormSchema, input),
  may: () => [OWN_SIGN_IN],
  refused: (_input, { message }): ConfirmIdentityState => ({ error: message }),
  run: async ({ password }, editor): Promise<ConfirmIdentityState> => {
    const outcome = await confirmIdentity(editor, password);
    if (outcome.ok) redirect(`${SECURITY_SCREEN}&notice=confirmed`, 303);
    if (outcome.reason === 'throttled') {
      refuseForm(429);
      const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
      return { error: `Too many attempts. Try again in ${minutes} minute(s).` };
    }
    if (outcome.reason === 'busy' || outcome.reason === 'unavailable') {
      refuseForm(503);
      return {
        error: 'Folio cannot check it right now. Nothing was checked; try again in a moment.',
      };
    }
    if (outcome.reason === 'signed-out') redirect('/preview?notice=signed-out', 303);
    refuseForm(401);
    return { error: 'That is not your password. Nothing was changed.' };
  },
});
