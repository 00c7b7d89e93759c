'use server';
// Every editor action: parse the form with the shared schema, check who is asking, act, then
// redirect (303) on success or return what the form needs to show the error with the typed
// text kept. Waku itself refuses cross-origin and `Origin: null` action requests (403).
import {
  unstable_getRequest as getRequest,
  unstable_redirect as redirect,
} from 'waku/router/server';
import { ContentError, contentStore } from '../../lib/content';
import { getDatabase } from '../../lib/db';
import {
  currentEditorSession,
  endEditorSession,
  startEditorSession,
} from '../../lib/editor-session';
import { verifyCredentials } from '../../lib/editors';
import { createPreviewToken, parseTtl, previewLinkPath } from '../../lib/preview-links';
import { previewPath } from '../../lib/preview-paths';
import { siteSecret } from '../../lib/secrets';
import { signInThrottle } from '../../lib/sign-in-throttle';
import { siteOrigin } from '../../lib/site-url';
import {
  type EditorFormState,
  type EditorFormValues,
  editorFormSchema,
  type ShareLinkState,
  type SignInState,
} from './forms';

const SIGNED_OUT_MESSAGE =
  'Your session has ended. Sign in again in another tab, then save: your text is kept here.';

function clientAddress(request: Request): string {
  return request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'direct';
}

/** A same-site path to go back to after signing in; anything else falls back to /preview. */
function safeNext(value: FormDataEntryValue | null): string {
  const text = typeof value === 'string' ? value : '';
  return /^\/preview(?:\/[a-z0-9-]*)?$/.test(text) ? text : '/preview';
}

export async function signIn(_previous: SignInState, formData: FormData): Promise<SignInState> {
  const request = getRequest();
  const email = String(formData.get('email') ?? '').slice(0, 254);
  const password = String(formData.get('password') ?? '').slice(0, 1024);
  const next = safeNext(formData.get('next'));
  const throttle = signInThrottle();
  const address = clientAddress(request);
  const wait = throttle.retryAfterSeconds(email, address);
  if (wait > 0) {
    return { email, error: `Too many attempts. Try again in ${Math.ceil(wait / 60)} minute(s).` };
  }
  const editor = await verifyCredentials(getDatabase(), email, password);
  if (!editor) {
    throttle.recordFailure(email, address);
    // The same words whether or not the email has an account.
    return { email, error: 'That email and password do not match an editor account.' };
  }
  throttle.recordSuccess(email);
  startEditorSession(editor.id, request);
  // An absolute URL makes the browser load the page anew (with JavaScript too), so the page
  // is rendered with the new cookie rather than inside this cookie-less action request.
  redirect(new URL(next, siteOrigin(request)), 303);
}

export async function signOut(formData: FormData): Promise<void> {
  endEditorSession({ everywhere: formData.get('everywhere') === '1' });
  redirect(new URL('/preview', siteOrigin()), 303);
}

function valuesFrom(formData: FormData): EditorFormValues {
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === 'string' ? value : '';
  };
  return {
    slug: text('slug').trim(),
    originalSlug: text('originalSlug'),
    title: text('title'),
    summary: text('summary'),
    body: text('body'),
    version: text('version'),
  };
}

export async function saveDraft(
  _previous: EditorFormState,
  formData: FormData,
): Promise<EditorFormState> {
  const values = valuesFrom(formData);
  const session = currentEditorSession();
  if (!session) return { values, message: SIGNED_OUT_MESSAGE };
  const parsed = editorFormSchema.safeParse(values);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return { values, fieldErrors, message: 'Check the highlighted fields.' };
  }
  const input = parsed.data;
  const store = contentStore();
  const isNew = input.originalSlug === '';
  try {
    if (!isNew && input.slug !== input.originalSlug) {
      const page = store.getPage(input.originalSlug, { draft: true });
      if (!page || page.version !== input.version) {
        return {
          values,
          conflict: page ? conflictOf(page) : undefined,
          message: 'Someone else changed this page. Compare below.',
        };
      }
      store.renameSlug(input.originalSlug, input.slug);
    }
    const result = store.saveDraft({
      slug: input.slug,
      title: input.title,
      summary: input.summary,
      body: input.body,
      expectedVersion: isNew ? null : input.version + (input.slug !== input.originalSlug ? 1 : 0),
      editor: session.editor.email,
    });
    if (!result.ok) {
      return {
        values: { ...values, version: String(result.current?.version ?? input.version) },
        conflict: result.current ? conflictOf(result.current) : undefined,
        message:
          'Not saved: someone else saved this page since you opened it. Their version and yours are below; save again to replace theirs with yours.',
      };
    }
  } catch (error) {
    if (error instanceof ContentError) {
      const field =
        error.code === 'invalid-slug' || error.code === 'slug-taken' ? 'slug' : undefined;
      return {
        values,
        message: error.message,
        fieldErrors: field ? { [field]: error.message } : undefined,
      };
    }
    throw error;
  }
  redirect(`${previewPath(input.slug)}?notice=saved`, 303);
}

function conflictOf(page: {
  title: string;
  summary: string;
  bodyMarkdown: string;
  draftUpdatedBy: string | null;
  updatedAt: string;
  version: number;
}) {
  return {
    title: page.title,
    summary: page.summary,
    body: page.bodyMarkdown,
    savedBy: page.draftUpdatedBy,
    savedAt: page.updatedAt,
    version: page.version,
  };
}

type PageCommand = 'publish' | 'unpublish' | 'discard';

async function runPageCommand(command: PageCommand, formData: FormData): Promise<void> {
  const slug = String(formData.get('slug') ?? '');
  const version = Number(formData.get('version'));
  const session = currentEditorSession();
  if (!session) redirect(`/preview?notice=signed-out`, 303);
  const store = contentStore();
  let notice: string =
    command === 'publish' ? 'published' : command === 'unpublish' ? 'unpublished' : 'discarded';
  try {
    const page = store.getPage(slug, { draft: true });
    // The form carries the version the editor was looking at: acting on a page that changed
    // since would publish (or drop) text they have not seen.
    if (!page || page.version !== version) {
      notice = 'stale';
    } else if (command === 'publish') {
      store.publish(slug, { editor: session.editor.email, expectedVersion: version });
    } else if (command === 'unpublish') {
      store.unpublish(slug, { editor: session.editor.email });
    } else {
      store.discardDraft(slug);
      if (page.state === 'draft-only') redirect('/preview?notice=deleted', 303);
    }
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    notice = error.code === 'conflict' ? 'stale' : error.code === 'busy' ? 'busy' : 'refused';
  }
  redirect(`${previewPath(slug)}?notice=${notice}`, 303);
}

export async function publishPage(formData: FormData): Promise<void> {
  await runPageCommand('publish', formData);
}

export async function unpublishPage(formData: FormData): Promise<void> {
  await runPageCommand('unpublish', formData);
}

export async function discardDraft(formData: FormData): Promise<void> {
  await runPageCommand('discard', formData);
}

export async function createShareLink(
  _previous: ShareLinkState,
  formData: FormData,
): Promise<ShareLinkState> {
  const session = currentEditorSession();
  if (!session) return { error: 'Your session has ended. Sign in again.' };
  const slug = String(formData.get('slug') ?? '');
  const ttlSeconds = parseTtl(String(formData.get('ttl') ?? '24h'));
  if (ttlSeconds === null) return { error: 'Choose how long the link should work.' };
  if (!contentStore().getPage(slug, { draft: true }))
    return { error: 'This page no longer exists.' };
  const token = createPreviewToken(siteSecret(getDatabase()), slug, { ttlSeconds });
  return {
    url: `${siteOrigin()}${previewLinkPath(slug, token)}`,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000).toISOString(),
  };
}

/** Editor-only: proves that a server-side error reaches the log and Sentry with its digest. */
export async function sendServerTestError(): Promise<void> {
  if (!currentEditorSession()) redirect(new URL('/preview', siteOrigin()), 303);
  throw new Error('Folio test error from the server (sent on purpose from the preview)');
}
