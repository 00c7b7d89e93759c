// The guard and the action wrapper, called as Waku calls an action: inside a request's context,
// with the form a browser without JavaScript posts. Who is signed in is set on the context (as
// the session lookup leaves it), so each refusal is the guard's and the wrapper's alone.
// Waku's redirect and re-render stand in for the real ones: those load React's server build,
// which bun test does not run (no "react-server" condition); the redirect keeps its contract,
// a thrown error that carries where it goes. The servers' tests (tests/integration) run the
// real ones.
import { describe, expect, mock, test } from 'bun:test';
import { BUSY_MESSAGE, ContentError, UNAVAILABLE_MESSAGE } from '../content/content';
import { type RequestContext, requestContext, runInRequestContext } from '../http/request-context';
import { routeOf } from '../http/routes';
import { classifyRequestError } from '../observability/request-errors';
import { pageCommandSchema } from './forms';
import { type Asked, type EditorSession, SIGNED_OUT_MESSAGE } from './guard';

mock.module('waku/router/server', () => ({
  unstable_redirect: (to: string | URL, status = 307): never => {
    throw Object.assign(new Error('Redirect'), {
      redirect: { location: to instanceof URL ? to.href : to, status },
    });
  },
  unstable_rerenderRoute: () => {},
  unstable_notFound: (): never => {
    throw new Error('Not Found');
  },
}));

const { editorCommand, editorForm, readForm } = await import('./action');
const mediaActions = await import('./actions/media');
const pageActions = await import('./actions/pages');
const topicActions = await import('./actions/topics');
const scheduleActions = await import('./actions/schedules');
const sessionActions = await import('./actions/session');
const settingsActions = await import('./actions/settings');
const navigationActions = await import('./actions/navigation');
const shareLinkActions = await import('./actions/share-links');
const testErrorActions = await import('./actions/test-errors');

const EDITOR: EditorSession = {
  editor: { id: 1, email: 'writer@example.com', role: 'administrator' },
  expiresAt: new Date(Date.now() + 3_600_000),
  confirmedAt: new Date(),
};

type Asking = EditorSession | null | Error;

/** Runs `work` as one request to /preview/about, `asking` as who the session lookup found. */
async function inRequest<T>(
  asking: Asking,
  work: () => Promise<T>,
  { javascript = false } = {},
): Promise<{ outcome: T | undefined; thrown: unknown; context: RequestContext }> {
  const url = new URL('http://folio.test/preview/about');
  const request = new Request(url, {
    method: 'POST',
    headers: javascript ? { 'x-folio-action': '/RSC/F/x/y.txt' } : {},
  });
  return runInRequestContext(
    {
      request,
      url,
      route: routeOf(url.pathname),
      https: false,
      clientAddress: '127.0.0.1',
      origin: url.origin,
    },
    async () => {
      const context = requestContext();
      const session = asking instanceof Error ? Promise.reject(asking) : Promise.resolve(asking);
      session.catch(() => {});
      context.session = session;
      try {
        return { outcome: await work(), thrown: undefined, context };
      } catch (thrown) {
        return { outcome: undefined, thrown, context };
      }
    },
  );
}

function form(fields: Record<string, string | Blob>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

/** Where a thrown redirect goes (303, as every action answers), or undefined if not one. */
function redirectedTo(thrown: unknown): string | undefined {
  const redirect = (thrown as { redirect?: { location: string; status: number } }).redirect;
  if (redirect) expect(redirect.status).toBe(303);
  return redirect?.location;
}

const TYPED = 'Typed while signed out:\nKEEP-ME';
/** The editor form's fields for page 1 at version 1, as the editor sends them. */
const PAGE_FIELDS = {
  slug: 'about',
  originalSlug: 'about',
  pageId: '1',
  version: '1',
  title: 'T',
  summary: '',
  body: 'B',
};
const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

// Each action answered in place, a form that reaches its body, and where its typed text is kept.
const ANSWERED: Record<string, { call: () => Promise<unknown>; kept: (state: never) => unknown }> =
  {
    saveDraft: {
      call: () => pageActions.saveDraft({}, form({ ...PAGE_FIELDS, body: TYPED })),
      kept: (state: { values?: { body: string } }) => state.values?.body,
    },
    autosaveDraft: {
      call: () => pageActions.autosaveDraft({ ...PAGE_FIELDS, body: TYPED }),
      kept: () => TYPED, // The editor keeps its own text: an autosave never hands any back.
    },
    previewDraft: { call: () => pageActions.previewDraft({ body: TYPED }), kept: () => TYPED },
    // Nothing typed goes with it: it only asks for the page again.
    rerenderEditor: { call: () => pageActions.rerenderEditor(null), kept: () => TYPED },
    schedulePublish: {
      call: () =>
        scheduleActions.schedulePublish(
          {},
          form({ slug: 'about', pageId: '1', publishAt: '2031-01-02T03:04', publishAtUtc: '' }),
        ),
      kept: (state: { publishAt?: string }) =>
        state.publishAt === '2031-01-02T03:04' ? TYPED : state.publishAt,
    },
    uploadMedia: {
      call: () =>
        mediaActions.uploadMedia({}, form({ alt: TYPED, file: new File(['x'], 'x.png') })),
      kept: (state: { alt?: string }) => state.alt,
    },
    saveTopic: {
      call: () =>
        topicActions.saveTopic(
          {},
          form({ id: '1', name: 'N', slug: 'n', intro: TYPED, updated_at: 'v' }),
        ),
      kept: (state: { values?: { intro: string } }) => state.values?.intro,
    },
    changeMedia: {
      call: () =>
        mediaActions.changeMedia({}, form({ hash: 'a'.repeat(32), intent: 'save', alt: TYPED })),
      kept: (state: { alt?: string }) => state.alt,
    },
    createShareLink: {
      call: () =>
        shareLinkActions.createShareLink({}, form({ ttl: '7d', pageId: '1', slug: 'about' })),
      kept: (state: { ttl?: string }) => (state.ttl === '7d' ? TYPED : state.ttl),
    },
    saveSiteSettings: {
      call: () =>
        settingsActions.saveSiteSettings({}, form({ title: TYPED, tagline: '', footer: '' })),
      kept: (state: { values?: { title: string } }) => state.values?.title,
    },
    saveMenus: {
      call: () =>
        navigationActions.saveMenus(
          {},
          form({
            menu: 'footer',
            kind: 'link',
            page: '',
            label: TYPED,
            url: 'https://example.com/',
            intent: 'save',
          }),
        ),
      kept: (state: { entries?: { label: string }[] }) => state.entries?.[0]?.label,
    },
  };

// Each command form, and the page it lands on when the database cannot say who is asking.
const COMMANDS: Record<string, { call: () => Promise<unknown>; busyAt: string }> = {
  publishPage: {
    call: () => pageActions.publishPage(form({ slug: 'about', pageId: '1', version: '1' })),
    busyAt: '/preview/about?notice=busy',
  },
  unpublishPage: {
    call: () => pageActions.unpublishPage(form({ slug: 'about', pageId: '1', version: '1' })),
    busyAt: '/preview/about?notice=busy',
  },
  discardDraft: {
    call: () => pageActions.discardDraft(form({ slug: 'about', pageId: '1', version: '1' })),
    busyAt: '/preview/about?notice=busy',
  },
  restoreRevision: {
    call: () =>
      pageActions.restoreRevision(
        form({ slug: 'about', pageId: '1', revisionId: '2', version: '1' }),
      ),
    busyAt: '/preview/about?history&notice=busy',
  },
  restoreCheckpoint: {
    call: () =>
      pageActions.restoreCheckpoint(
        form({ slug: 'about', pageId: '1', checkpointId: '2', version: '1' }),
      ),
    busyAt: '/preview/about?history&notice=busy',
  },
  cancelScheduledPublish: {
    call: () => scheduleActions.cancelScheduledPublish(form({ slug: 'about', pageId: '1' })),
    busyAt: '/preview/about?notice=busy',
  },
  dismissMissedSchedule: {
    call: () =>
      scheduleActions.dismissMissedSchedule(form({ slug: 'about', pageId: '1', missedAt: '' })),
    busyAt: '/preview/about?notice=busy',
  },
  revokeShareLink: {
    call: () => shareLinkActions.revokeShareLink(form({ slug: 'about', linkId: '3', pageId: '1' })),
    busyAt: '/preview/about?notice=busy',
  },
};

describe('every editor action asks the guard', () => {
  test('each exported action is in one of the tables below (a new one must be added)', () => {
    const exported = [
      pageActions,
      scheduleActions,
      mediaActions,
      topicActions,
      shareLinkActions,
      settingsActions,
      navigationActions,
      testErrorActions,
    ].flatMap((module) => Object.keys(module));
    // Signing in and out need no editor: they are the way in and out.
    expect(Object.keys(sessionActions).sort()).toEqual(['signIn', 'signOut']);
    const covered = [...Object.keys(ANSWERED), ...Object.keys(COMMANDS), 'sendServerTestError'];
    expect(exported.sort()).toEqual(covered.sort());
  });

  for (const [name, { call, kept }] of Object.entries(ANSWERED)) {
    test(`${name}: signed out, the one sentence, 401 without JavaScript, the typed text kept`, async () => {
      const { outcome, thrown, context } = await inRequest(null, call);
      expect(thrown).toBeUndefined();
      const state = outcome as { message?: string; error?: string };
      expect(state.message ?? state.error).toBe(SIGNED_OUT_MESSAGE);
      expect(kept(outcome as never)).toBe(TYPED);
      if (name !== 'autosaveDraft' && name !== 'previewDraft') expect(context.status).toBe(401);
      if (name === 'autosaveDraft')
        expect((outcome as { signedOut?: boolean }).signedOut).toBe(true);
    });

    test(`${name}: a busy database says so, the typed text kept, as a 503 (hostile pass: was 200)`, async () => {
      const { outcome, thrown, context } = await inRequest(busy(), call);
      expect(thrown).toBeUndefined();
      const state = outcome as { message?: string; error?: string };
      expect(state.message ?? state.error).toContain(
        name === 'createShareLink' ? 'Folio is busy' : BUSY_MESSAGE,
      );
      expect(kept(outcome as never)).toBe(TYPED);
      // Without JavaScript (these calls carry no x-folio-action): the form page is a 503.
      expect(context.status).toBe(503);
    });
  }

  for (const [name, { call, busyAt }] of Object.entries(COMMANDS)) {
    test(`${name}: signed out lands on the dashboard to sign in; busy, back at the page`, async () => {
      expect(redirectedTo((await inRequest(null, call)).thrown)).toBe('/preview?notice=signed-out');
      expect(redirectedTo((await inRequest(busy(), call)).thrown)).toBe(busyAt);
    });
  }

  test('sendServerTestError: signed out goes to sign in; signed in, the error is thrown', async () => {
    const out = await inRequest(null, () => testErrorActions.sendServerTestError());
    expect(redirectedTo(out.thrown)).toBe('http://folio.test/preview');
    const signedIn = await inRequest(EDITOR, () => testErrorActions.sendServerTestError());
    expect((signedIn.thrown as Error).message).toContain('Folio test error from the server');
    // A database that cannot say who is asking is its own error (a 503 page), not a refusal.
    const lost = await inRequest(busy(), () => testErrorActions.sendServerTestError());
    expect(classifyRequestError(lost.thrown)?.status).toBe(503);
  });
});

describe('the action wrapper', () => {
  type State = { message?: string; text?: string };
  const wrapped = (run: () => Promise<State>, may: () => readonly Asked[] = () => []) =>
    editorForm({
      read: (input) => readForm(pageCommandSchema, input),
      may,
      refused: ({ slug }, { message }): State => ({ message, text: slug }),
      run,
      rejected: ({ slug }, error): State | undefined =>
        error.code === 'conflict'
          ? { message: `refused: ${error.message}`, text: slug }
          : undefined,
    });
  const post = (run: () => Promise<State>, options = {}) =>
    inRequest(EDITOR, () => wrapped(run)({}, form({ slug: 'about' })), options);

  test('a busy or unreachable database in the body answers with its words and the text kept', async () => {
    for (const [error, words] of [
      [busy(), BUSY_MESSAGE],
      [Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), UNAVAILABLE_MESSAGE],
      [new ContentError('busy', 'Busy, in the store’s words.'), 'Busy, in the store’s words.'],
    ] as const) {
      const { outcome, context } = await post(async () => {
        throw error;
      });
      expect(outcome).toEqual({ message: words, text: 'about' });
      // The form page without JavaScript is a 503 (with Retry-After), as every such answer.
      expect(context.status).toBe(503);
    }
  });

  test('a refusal the action expects is its answer; anything else is thrown as a bug', async () => {
    const refused = await post(async () => {
      throw new ContentError('conflict', 'changed meanwhile');
    });
    expect(refused.outcome).toEqual({ message: 'refused: changed meanwhile', text: 'about' });
    const bug = new Error('a bug');
    expect((await post(async () => Promise.reject(bug))).thrown).toBe(bug);
    const unexpected = await post(async () => {
      throw new ContentError('invalid', 'not expected here');
    });
    expect(isContentErrorLike(unexpected.thrown)).toBe(true);
  });

  test('the signed-in editor reaches the body; signed out, 401 only for a page without JavaScript', async () => {
    expect((await post(async () => ({ message: 'ran' }))).outcome).toEqual({ message: 'ran' });
    const call = () => wrapped(async () => ({ message: 'ran' }))({}, form({ slug: 'about' }));
    expect((await inRequest(null, call)).context.status).toBe(401);
    const withJs = await inRequest(null, call, { javascript: true });
    expect(withJs.outcome).toEqual({ message: SIGNED_OUT_MESSAGE, text: 'about' });
    expect(withJs.context.status).toBeUndefined();
  });

  test('what the person may not do is a 403 in words, the text kept, and the body never runs', async () => {
    let ran = false;
    const contributor: EditorSession = {
      ...EDITOR,
      editor: { ...EDITOR.editor, role: 'contributor' },
    };
    const call = () =>
      wrapped(
        async () => {
          ran = true;
          return { message: 'ran' };
        },
        () => [{ action: 'settings.edit' }],
      )({}, form({ slug: 'about' }));
    const { outcome, context } = await inRequest(contributor, call);
    expect(outcome).toEqual({
      message: 'You cannot change site settings: Contributors may not. Ask an Administrator.',
      text: 'about',
    });
    expect(context.status).toBe(403);
    expect(ran).toBe(false);
    // An Administrator asking the same reaches the body.
    expect((await inRequest(EDITOR, call)).outcome).toEqual({ message: 'ran' });
  });

  test('a forged call is a 400 before anyone is asked: no form, a bad slug, an unknown button', async () => {
    const forged: (() => Promise<unknown>)[] = [
      () => wrapped(async () => ({}))({}, 'not a form' as unknown as FormData),
      () => wrapped(async () => ({}))({}, form({ slug: '../etc' })),
      () => pageActions.saveDraft({}, form({ slug: 'about', intent: 'nope' })),
      () => pageActions.restoreRevision(form({ slug: 'about', pageId: '1' })),
      () => mediaActions.changeMedia({}, form({ hash: 'x', alt: '' })),
      () => pageActions.autosaveDraft('not values'),
    ];
    for (const call of forged) {
      const { thrown } = await inRequest(null, call);
      expect(classifyRequestError(thrown)?.status).toBe(400);
    }
  });

  test('a JavaScript call takes text where text is expected and digits for ids: anything else is a 400, never converted', async () => {
    const values = { ...PAGE_FIELDS };
    // A value whose toString is not a function made String() throw: an unexpected error (500).
    const throwing = { toString: 'x' };
    // A temporary reference: a proxy React hands over that throws when looked at.
    const reference = new Proxy(() => {}, {
      get: () => {
        throw new Error('Cannot access a temporary reference');
      },
    });
    const forged: unknown[] = [
      { ...values, title: throwing },
      { ...values, title: reference },
      reference,
      { ...values, body: ['a', 'b'] },
      { ...values, pageId: '0x5' },
      { ...values, pageId: 5 },
      { ...values, version: ' 1' },
      { ...values, version: '1e3' },
      { ...values, version: undefined },
    ];
    for (const asking of [EDITOR, null]) {
      for (const call of forged) {
        const { thrown } = await inRequest(asking, () => pageActions.autosaveDraft(call));
        expect(classifyRequestError(thrown)?.status).toBe(400);
      }
      const preview = await inRequest(asking, () => pageActions.previewDraft({ body: throwing }));
      expect(classifyRequestError(preview.thrown)?.status).toBe(400);
    }
  });

  test('junk in the editor form’s hidden id and version fields is a forged form (400), not a field to correct (422)', async () => {
    for (const hidden of [
      { version: 'abc' },
      { version: '' },
      { pageId: '0x5' },
      { pageId: '1.5' },
    ]) {
      const fields = { ...PAGE_FIELDS, ...hidden };
      const { thrown, context } = await inRequest(EDITOR, () =>
        pageActions.saveDraft({}, form(fields)),
      );
      expect(classifyRequestError(thrown)?.status).toBe(400);
      expect(context.status).toBeUndefined();
    }
    // A command form's id is read as digits too: '0x5' is not page 5.
    expect(pageCommandSchema.parse({ slug: 'about', pageId: '0x5', version: '1' }).pageId).toBe(
      undefined,
    );
  });

  test('a command maps the store’s refusal to its notice and lands there', async () => {
    const command = editorCommand({
      read: (input) => readForm(pageCommandSchema, input),
      may: () => [],
      run: async () => {
        throw new ContentError('conflict', 'stale');
      },
      land: async ({ slug }, notice) => {
        throw Object.assign(new Error('landed'), { at: `${slug}:${notice}` });
      },
    });
    const { thrown } = await inRequest(EDITOR, () => command(form({ slug: 'about' })));
    expect((thrown as { at?: string }).at).toBe('about:stale');
  });
});

function isContentErrorLike(error: unknown): boolean {
  return error instanceof ContentError && error.code === 'invalid';
}
