// Owns the one shape of an editor action: read the form with its schema (a form that does not
// fit is forged: 400 via badRequest), ask the guard who is signing it and whether they may do
// what the action says it does (its `may`: required, so no action can leave it out), run the
// action's body —
// its domain call — and turn what is expected to go wrong into the form's answer: a state that
// keeps the typed text (answered in place), or a 303 back to the page with a notice (commands).
// A database that is busy or out of reach, and a session that has ended, are answered here and
// nowhere else; anything unexpected is thrown, reported, and gets a digest.
import 'server-only';
import { unstable_redirect as redirect } from 'waku/router/server';
import type { z } from 'zod';
import { type ContentError, isContentError } from '../content/content';
import { requestContext, setDocumentStatus } from '../http/request-context';
import type { KeptText } from '../observability/fallback-page';
import { badRequest } from '../observability/request-errors';
import {
  type Asked,
  databaseRefusal,
  type EditorRefusal,
  type EditorSession,
  isEditorRefused,
  requireEditor,
  requirePermission,
  SECOND_FACTOR_SCREEN,
} from './guard';

/**
 * A form posted without JavaScript and refused: the page that answers it (the form, its text,
 * the reason) carries a 4xx/5xx status, as a refusal should. An action called by the page's
 * JavaScript gets its answer as data, and a 200 the router expects.
 */
export function refuseForm(status: number): void {
  if (requestContext().request.headers.has('x-folio-action')) return;
  setDocumentStatus(status);
}

/**
 * The form an action was called with. Actions are public endpoints: a forged call can pass
 * anything, or nothing, and that is a bad request (400), not a bug.
 */
function formOf(value: unknown): FormData {
  try {
    if (value instanceof FormData) return value;
  } catch {
    // A forged argument can be an object that throws when looked at (a temporary reference).
  }
  throw badRequest('This action takes a form.');
}

/** What a schema says of a forged input: its first complaint, as a 400. */
function forged(error: z.ZodError, fallback: string): Error {
  return badRequest(error.issues[0]?.message ?? fallback);
}

/**
 * A form read with its schema: each field by name (a repeated one as a list), own properties
 * only, so a field named `__proto__` is a field like any other.
 */
export function readForm<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): z.output<Schema> {
  const form = formOf(input);
  const fields = Object.fromEntries(
    [...new Set(form.keys())].map((name) => {
      const values = form.getAll(name);
      return [name, values.length === 1 ? values[0] : values];
    }),
  );
  const parsed = schema.safeParse(fields);
  if (!parsed.success) throw forged(parsed.error, 'Bad request.');
  return parsed.data;
}

/** The arguments of an action only the page's JavaScript calls (an object, not a form). */
export function readCall<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  expected: string,
): z.output<Schema> {
  if (typeof input !== 'object' || input === null) throw badRequest(expected);
  let parsed: z.ZodSafeParseResult<z.output<Schema>>;
  try {
    parsed = schema.safeParse(input);
  } catch {
    // A forged argument can hold a value that throws when looked at (a temporary reference).
    throw badRequest(expected);
  }
  if (!parsed.success) throw badRequest(expected);
  return parsed.data;
}

type Answered<Input, State> = {
  /** Reads the call's argument with the form's schema (readForm, readCall). */
  read: (input: unknown) => Input;
  /**
   * What the action does, for the permission table (editors/permissions.ts): each action of the
   * table it performs, and the page it does it to. Asked after the session, before `run`.
   */
  may: (input: Input) => readonly Asked[];
  /** A refusal that needs no editor (a time that cannot be read): the action sets its status. */
  check?: (input: Input) => State | undefined;
  /** The answer when the action did not run: the reason in words, the typed text kept. */
  refused: (input: Input, refusal: EditorRefusal) => State;
  /** The action itself: its domain call, and the state (or redirect) that follows. */
  run: (input: Input, editor: EditorSession) => Promise<State>;
  /** The answer to a refusal by the content or media store, if this action expects it. */
  rejected?: (input: Input, error: ContentError) => State | undefined;
  /**
   * Every field of the form in words, for the sign-in page that replaces a form posted without
   * JavaScript once the session has ended. Without it the page keeps what the front door kept
   * (TYPED_FIELDS): enough for the editor's form, not for one with other fields.
   */
  kept?: (input: Input) => Promise<KeptText>;
};

/** Hands the refused form's fields to the sign-in page; a lookup that fails keeps what was. */
async function keepForSignIn<Input>(
  kept: ((input: Input) => Promise<KeptText>) | undefined,
  input: Input,
): Promise<void> {
  if (!kept || requestContext().request.headers.has('x-folio-action')) return;
  try {
    requestContext().keptText = await kept(input);
  } catch {
    // The front door's copy (the typed fields) stays: a refusal is never made into an error.
  }
}

/** An action answered with a state: one the page's JavaScript calls with its own arguments. */
export function editorCall<Input, State>(
  spec: Answered<Input, State>,
): (input: unknown) => Promise<State> {
  return async (submitted) => {
    const input = spec.read(submitted);
    const early = spec.check?.(input);
    if (early !== undefined) return early;
    let editor: EditorSession;
    try {
      editor = await requireEditor();
    } catch (error) {
      if (!isEditorRefused(error)) throw error;
      if (error.refusal.reason === 'signed-out') {
        refuseForm(401);
        await keepForSignIn(spec.kept, input);
      } else refuseForm(503);
      return spec.refused(input, error.refusal);
    }
    try {
      await requirePermission(editor, spec.may(input));
      return await spec.run(input, editor);
    } catch (error) {
      // Not theirs to do: the form comes back with its text, saying what and why, as a 403.
      if (isEditorRefused(error) && error.refusal.reason === 'forbidden') {
        refuseForm(403);
        return spec.refused(input, error.refusal);
      }
      // A database busy, out of reach or full: the form comes back with its text and says so,
      // as a 503 (with Retry-After) like every other answer the database could not give.
      const refusal = databaseRefusal(error);
      if (refusal !== null) {
        refuseForm(503);
        return spec.refused(input, refusal);
      }
      const answer = isContentError(error) ? spec.rejected?.(input, error) : undefined;
      if (answer === undefined) throw error;
      return answer;
    }
  };
}

/** A form answered in place (React's useActionState: the previous state, then the form). */
export function editorForm<Input, State>(
  spec: Answered<Input, State>,
): (previous: State, form: FormData) => Promise<State> {
  const call = editorCall(spec);
  return (_previous, form) => call(form);
}

/** A store's refusal as the notice a command's page shows (fixed words, never the URL's). */
const NOTICE_FOR_ERROR: Record<string, string> = {
  conflict: 'stale',
  replaced: 'replaced',
  busy: 'busy',
  unavailable: 'unavailable',
  'not-found': 'gone',
  'missing-media': 'missing-media',
  'redirect-source': 'redirect-source',
};

/**
 * A command form (publish, cancel a schedule, revoke a link…): no typed text to keep, so every
 * outcome is a 303 — to the dashboard to sign in again, or to `land` with a notice: the one
 * the body returns, or the one for what refused it (busy, stale, gone…).
 */
export function editorCommand<Input>(spec: {
  read: (input: unknown) => Input;
  /** As a form's `may`: what the command does, to which page. */
  may: (input: Input) => readonly Asked[];
  run: (input: Input, editor: EditorSession) => Promise<string>;
  land: (input: Input, notice: string) => Promise<never>;
}): (form: FormData) => Promise<void> {
  return async (submitted) => {
    const input = spec.read(submitted);
    let notice: string;
    try {
      const editor = await requireEditor();
      await requirePermission(editor, spec.may(input));
      notice = await spec.run(input, editor);
    } catch (error) {
      if (isEditorRefused(error) && error.refusal.reason === 'signed-out')
        redirect('/preview?notice=signed-out', 303);
      // The site's rule: no second factor yet — the screen that sets one up says why.
      if (isEditorRefused(error) && error.refusal.secondFactor) redirect(SECOND_FACTOR_SCREEN, 303);
      const refusal = isEditorRefused(error) ? error.refusal : databaseRefusal(error);
      // Changing one's sign-in without a recent password: the screen that asks for it.
      if (refusal !== null) notice = refusal.confirm ? 'confirm-first' : refusal.reason;
      else if (isContentError(error)) notice = NOTICE_FOR_ERROR[error.code] ?? 'refused';
      else throw error;
    }
    await spec.land(input, notice);
  };
}
