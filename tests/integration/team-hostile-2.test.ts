// Issue 28's second hostile pass over the team features (/work/hostile/repro), through the real
// server as the README starts it, each finding as the request that showed it:
// H1 a reviewer's stale tab scheduled text it never showed (form and JavaScript call);
// H2 a Contributor's Restore as draft kept a reviewer's schedule;
// M2 an Author took an address an Editor's redirect answers (create, rename, publish);
// L1 an Administrator ended the Owner's sessions;
// L2 an Author put a post under a colleague's name alone;
// L3 buttons shown that the role may not press (Edit, Save draft, a refused share form);
// L4 an Origin of the same host over the other scheme was taken.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import { addEditor } from '../../src/lib/editors/accounts';
import { formsIn, formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const PASSWORD = 'the team passphrase';
const OWNER = 'owner@example.com';
const ADMIN = 'admin@example.com';
const EDITOR = 'editor@example.com';
const WRITER = 'writer@example.com';
const AUTHOR = 'author@example.com';
const COLLEAGUE = 'colleague@example.com';

let folio: RunningFolio;
const cookies: Record<string, string> = {};
const ids: Record<string, number> = {};
const store = <T>(work: (store: ContentStore) => Promise<T>) => withStore(folio, work);

const get = (who: string, path: string) =>
  fetch(`${folio.url}${path}`, { headers: { cookie: cookies[who] ?? '' }, redirect: 'manual' });
const html = async (who: string, path: string) => (await get(who, path)).text();
const words = (page: string) =>
  page
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
/** Presses `button` of a form taken from `page` (a tab's HTML), as `who`, with `set` typed. */
const press = async (
  who: string,
  path: string,
  page: string,
  button: string,
  set: Record<string, string> = {},
) =>
  submitForm(`${folio.url}${path}`, await formWithButton(page, button), {
    cookie: cookies[who],
    set,
    button,
  });
const page = async (slug: string) => {
  const found = await store((s) => s.getPage(slug, { draft: true }));
  if (!found) throw new Error(`no page ${slug}`);
  return found;
};
const publishAtOf = async (id: number) => {
  const db = await folio.database();
  const [row] = await db.query<{ publish_at: string | null }>`
    SELECT publish_at FROM pages WHERE id = ${id}`;
  return row?.publish_at ?? null;
};
/** A draft made by `who` (their own page), waiting for review. */
const submitted = async (who: string, slug: string, body: string) => {
  const made = await store(async (s) => {
    await s.saveDraft({
      slug,
      title: `Story ${slug}`,
      summary: '',
      body,
      expectedVersion: null,
      editor: who,
    });
    const draft = await s.getPage(slug, { draft: true });
    if (!draft) throw new Error(`no page ${slug}`);
    await s.submitForReview(draft.id, { editor: who, expectedVersion: draft.version });
    return draft;
  });
  return page(made.slug);
};
const inADay = () => {
  const at = new Date(Date.now() + 86_400_000).toISOString();
  return { publishAt: at.slice(0, 16), publishAtUtc: at };
};
/** The address of `email`'s author profile. */
const profileOf = async (email: string) => {
  const db = await folio.database();
  const [row] = await db.query<{ slug: string }>`
    SELECT a.slug FROM authors a JOIN editors e ON e.id = a.editor_id WHERE e.email = ${email}`;
  if (!row) throw new Error(`no profile for ${email}`);
  return row.slug;
};

beforeAll(async () => {
  folio = await startFolio();
  const db = await folio.database();
  const people: [string, 'administrator' | 'editor' | 'contributor' | 'author' | undefined][] = [
    [OWNER, undefined],
    [ADMIN, 'administrator'],
    [EDITOR, 'editor'],
    [WRITER, 'contributor'],
    [AUTHOR, 'author'],
    [COLLEAGUE, 'author'],
  ];
  for (const [email, role] of people) {
    const made = await addEditor(db, email, PASSWORD, role ? { role } : {});
    ids[email] = made.id;
    cookies[email] = (await signInWithForm(folio.url, email, PASSWORD)).cookie;
  }
  for (const [email, slug] of [
    [AUTHOR, 'ann-author'],
    [COLLEAGUE, 'cole-league'],
  ] as const)
    await store((s) =>
      s.saveAuthorProfile(ids[email] ?? 0, {
        name: slug,
        slug,
        bio: '',
        photo: '',
        links: '',
      }),
    );
}, 300_000);
afterAll(async () => {
  await folio?.stop();
});

describe('H1: a stale review tab schedules nothing', () => {
  test('Schedule on a review tab opened before the writer saved is refused as Publish is', async () => {
    const story = await submitted(WRITER, 'stale-review', 'The REVIEWED text.');
    const tab = await html(EDITOR, '/preview/stale-review?review');
    expect(tab.includes('The REVIEWED text.')).toBe(true);
    await store((s) =>
      s.saveDraft({
        slug: 'stale-review',
        pageId: story.id,
        title: story.title,
        summary: '',
        body: 'An UNREVIEWED claim added later.',
        expectedVersion: story.version,
        editor: WRITER,
      }),
    );
    const scheduled = await press(
      EDITOR,
      '/preview/stale-review?review',
      tab,
      'Schedule',
      inADay(),
    );
    expect(scheduled.status).toBe(303);
    expect(scheduled.headers.get('location')).toBe('/preview/stale-review?notice=stale');
    expect(await publishAtOf(story.id)).toBeNull();
    // Publish on the same tab says the same.
    const published = await press(
      EDITOR,
      '/preview/stale-review?review',
      tab,
      'Publish this draft',
    );
    expect(published.headers.get('location')).toBe('/preview/stale-review?notice=stale');
    expect(words(await html(EDITOR, '/preview/stale-review?notice=stale'))).toContain(
      'Nothing changed: this page was changed since you opened it',
    );
    // A tab opened now, on the text as it is, schedules it.
    const fresh = await html(EDITOR, '/preview/stale-review?review');
    const again = await press(EDITOR, '/preview/stale-review?review', fresh, 'Schedule', inADay());
    expect(again.headers.get('location')).toBe('/preview/stale-review?notice=scheduled');
    expect(await publishAtOf(story.id)).not.toBeNull();
  });

  test('the JavaScript call with the version shown schedules nothing after a later save', async () => {
    const story = await submitted(WRITER, 'stale-review-js', 'Reviewed in the browser.');
    const form = await formWithButton(await html(EDITOR, `/preview/${story.slug}`), 'Schedule');
    const version = form.fields.find(([name]) => name === 'version')?.[1];
    expect(version).toBe(String(story.version));
    await store((s) =>
      s.saveDraft({
        slug: story.slug,
        pageId: story.id,
        title: story.title,
        summary: '',
        body: 'Unreviewed browser text.',
        expectedVersion: story.version,
        editor: WRITER,
      }),
    );
    const actionId = await actionIdOf('schedulePublish');
    const at = inADay();
    const body = new FormData();
    // useActionState's call: the previous state, then the form (React's "$K" reference).
    body.append('0', '["$undefined","$K1"]');
    for (const [name, value] of Object.entries({
      slug: story.slug,
      pageId: String(story.id),
      version: version ?? '',
      ...at,
    }))
      body.append(`_1_${name}`, value);
    const response = await fetch(`${folio.url}/preview/${story.slug}`, {
      method: 'POST',
      body,
      redirect: 'manual',
      headers: {
        origin: folio.url,
        cookie: cookies[EDITOR] ?? '',
        'x-folio-action': `/RSC/F/${actionId}/schedulePublish.txt`,
        'x-waku-action-location': `/preview/${story.slug}`,
      },
    });
    const answer = await response.text();
    // The router is sent to the page as it is now, saying why (Publish's words).
    expect(answer).toContain('"ROUTE":["/preview/stale-review-js","notice=stale"]');
    expect(answer).toContain('Nothing changed: this page was changed since you opened it');
    expect(answer).not.toContain('    at ');
    expect(await publishAtOf(story.id)).toBeNull();
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

describe('H2: a restore by someone who may not schedule the page ends the schedule', () => {
  test('a Contributor’s Restore as draft cancels the reviewer’s schedule and asks for review again', async () => {
    const created = await press(
      WRITER,
      '/preview?new',
      await html(WRITER, '/preview?new'),
      'Create draft',
      { title: 'Restore sched', slug: 'restore-sched', body: 'UNREVIEWED old version.' },
    );
    expect(created.status).toBe(303);
    // A save by another person starts a new history entry.
    const edited = await press(
      EDITOR,
      '/preview/restore-sched?edit',
      await html(EDITOR, '/preview/restore-sched?edit'),
      'Save draft',
      { body: 'Reviewed final text.' },
    );
    expect(edited.status).toBe(303);
    const story = await page('restore-sched');
    await store((s) =>
      s.submitForReview(story.id, { editor: WRITER, expectedVersion: story.version }),
    );
    const scheduled = await press(
      EDITOR,
      '/preview/restore-sched',
      await html(EDITOR, '/preview/restore-sched'),
      'Schedule',
      inADay(),
    );
    expect(scheduled.headers.get('location')).toContain('notice=scheduled');

    const history = await html(WRITER, '/preview/restore-sched?history');
    const restores = (await formsIn(history)).filter((form) =>
      form.buttons.some((button) => button.text.trim() === 'Restore as draft'),
    );
    const oldest = restores.at(-1);
    if (!oldest) throw new Error('no Restore as draft for the writer');
    const restored = await submitForm(`${folio.url}/preview/restore-sched?history`, oldest, {
      cookie: cookies[WRITER],
      button: 'Restore as draft',
    });
    expect(restored.status).toBe(303);
    expect(restored.headers.get('location')).toBe(
      '/preview/restore-sched?edit&notice=restored-unscheduled',
    );
    expect(await publishAtOf(story.id)).toBeNull();
    const after = await page('restore-sched');
    expect(after.bodyMarkdown).toBe('UNREVIEWED old version.');
    expect(await store((s) => s.reviewOf(story.id))).toMatchObject({
      state: 'waiting',
      askedBy: WRITER,
      askedVersion: after.version,
    });
    expect(await store((s) => s.publishDue())).toEqual([]);
    expect(
      words(await html(WRITER, '/preview/restore-sched?edit&notice=restored-unscheduled')),
    ).toContain('Its scheduled publish is cancelled');
  });
});

describe('M2: an address an Editor redirected is theirs to give up', () => {
  const REFUSAL = 'is a redirect to /about; someone who manages redirects must remove it first';

  test('an Author or a Contributor cannot create, rename onto or publish a page at it', async () => {
    await store((s) =>
      s.addRedirect({ from: '/promo-1', to: '/about', status: 301 }, { editor: EDITOR }),
    );
    for (const who of [AUTHOR, WRITER]) {
      const created = await press(
        who,
        '/preview?new',
        await html(who, '/preview?new'),
        'Create draft',
        { title: 'Hijack', slug: 'promo-1', body: 'Taken over.' },
      );
      expect(created.status).toBe(403);
      const body = words(await created.text());
      expect(body).toContain(`/promo-1 ${REFUSAL}`);
      expect(body).toContain('Taken over.');
    }
    expect(await store((s) => s.getPage('promo-1', { draft: true }))).toBeNull();

    // Renaming an Author's own page onto it.
    await store((s) =>
      s.saveDraft({
        slug: 'own-story',
        title: 'Own',
        summary: '',
        body: 'Own.',
        expectedVersion: null,
        editor: AUTHOR,
      }),
    );
    const renamed = await press(
      AUTHOR,
      '/preview/own-story?edit',
      await html(AUTHOR, '/preview/own-story?edit'),
      'Save draft',
      { slug: 'promo-1' },
    );
    expect(renamed.status).toBe(403);
    expect(words(await renamed.text())).toContain(REFUSAL);
    expect((await page('own-story')).slug).toBe('own-story');

    // A page of theirs already there (made before this rule): publishing it is refused too.
    await store(async (s) => {
      await s.saveDraft({
        slug: 'promo-2',
        title: 'Earlier',
        summary: '',
        body: 'Made before.',
        expectedVersion: null,
        editor: AUTHOR,
      });
    });
    const db = await folio.database();
    await db.query`INSERT INTO redirects (from_path, target, status, created_at, created_by)
                   VALUES ('/promo-2', '/about', 301, ${new Date().toISOString()}, ${EDITOR})`;
    const published = await press(
      AUTHOR,
      '/preview/promo-2',
      await html(AUTHOR, '/preview/promo-2'),
      'Publish this draft',
    );
    expect(published.headers.get('location')).toBe('/preview/promo-2?notice=redirect-source');
    expect((await page('promo-2')).state).toBe('draft-only');
    const visitor = await fetch(`${folio.url}/promo-2`, { redirect: 'manual' });
    expect(visitor.status).toBe(301);
  });

  test('M1: a Contributor’s author address cannot take it either', async () => {
    await store((s) =>
      s.addRedirect({ from: '/promo-4', to: '/about', status: 301 }, { editor: EDITOR }),
    );
    const saved = await press(
      WRITER,
      '/preview?profile',
      await html(WRITER, '/preview?profile'),
      'Save profile',
      { name: 'Cee Writer', slug: 'promo-4', bio: 'Typed bio.' },
    );
    expect(saved.status).toBe(403);
    const body = words(await saved.text());
    expect(body).toContain(`/promo-4 ${REFUSAL}`);
    expect(body).toContain('Typed bio.');
    const visitor = await fetch(`${folio.url}/promo-4`, { redirect: 'manual' });
    expect(visitor.status).toBe(301);
    // Someone who manages redirects may (the rule is the pages' one).
    const editors = await press(
      EDITOR,
      '/preview?profile',
      await html(EDITOR, '/preview?profile'),
      'Save profile',
      { name: 'Edie Tor', slug: 'promo-4', bio: '' },
    );
    expect(editors.status).toBe(303);
  });

  test('an Editor, who manages redirects, may still put a page there', async () => {
    await store((s) =>
      s.addRedirect({ from: '/promo-3', to: '/about', status: 301 }, { editor: EDITOR }),
    );
    const created = await press(
      EDITOR,
      '/preview?new',
      await html(EDITOR, '/preview?new'),
      'Create draft',
      { title: 'Landing', slug: 'promo-3', body: 'The Editor’s page.' },
    );
    expect(created.status).toBe(303);
  });
});

describe('L1: the Owner’s sessions are the Owner’s to end', () => {
  test('an Administrator is refused, and is not offered the button on the Owner’s row', async () => {
    const screen = await html(ADMIN, '/preview?people');
    const forms = await formsIn(screen);
    const endsOwners = forms.filter(
      (form) =>
        form.buttons.some((button) => button.text.trim().startsWith('End sessions')) &&
        form.fields.some(([name, value]) => name === 'person' && value === String(ids[OWNER])),
    );
    expect(endsOwners).toEqual([]);
    const other = forms.find((form) =>
      form.buttons.some((button) => button.text.trim().startsWith('End sessions')),
    );
    if (!other) throw new Error('no End sessions form on the Administrator’s screen');
    const button = other.buttons[0]?.text.trim() ?? '';
    const refused = await submitForm(`${folio.url}/preview?people`, other, {
      cookie: cookies[ADMIN],
      set: { person: String(ids[OWNER]) },
      button,
    });
    expect(refused.status).toBe(409);
    expect(words(await refused.text())).toContain(
      'The Owner’s sessions can be ended only by the Owner',
    );
    const owner = await get(OWNER, '/preview');
    expect(owner.status).toBe(200);
    expect(await owner.text()).toContain(OWNER);
  });
});

describe('L2: an Author’s post names them when it names anyone', () => {
  test('an Author cannot byline a post to a colleague alone; with themselves, or as an Editor, they can', async () => {
    const colleague = await profileOf(COLLEAGUE);
    const mine = await profileOf(AUTHOR);
    const make = async (who: string, slug: string, authors: string) =>
      press(who, '/preview?new', await html(who, '/preview?new'), 'Create draft', {
        title: 'Ghost',
        slug,
        body: 'Words put in someone else’s mouth.',
        kind: 'post',
        authors,
      });
    const ghost = await make(AUTHOR, 'ghost-post', colleague);
    expect(ghost.status).toBe(403);
    expect(words(await ghost.text())).toContain(
      'You cannot put a post under other authors’ names alone',
    );
    expect(await store((s) => s.getPage('ghost-post', { draft: true }))).toBeNull();

    const together = await make(AUTHOR, 'joint-post', `${mine}`);
    expect(together.status).toBe(303);
    const byEditor = await make(EDITOR, 'edited-post', colleague);
    expect(byEditor.status).toBe(303);
  });
});

describe('L3: no button the role may not press', () => {
  test('a page that is nobody’s own offers a Contributor neither Edit nor Save draft', async () => {
    await store((s) =>
      s.putPage({ slug: 'nobodys', title: 'Nobody’s page', summary: '', body: 'CLI text.' }),
    );
    const dashboard = await html(WRITER, '/preview');
    expect(dashboard.includes('aria-label="Edit Nobody’s page"')).toBe(false);
    expect((await html(EDITOR, '/preview')).includes('aria-label="Edit Nobody’s page"')).toBe(true);
    const editor = await get(WRITER, '/preview/nobodys?edit');
    expect(editor.status).toBe(403);
    const body = await editor.text();
    expect(body.includes('Save draft')).toBe(false);
    expect(words(body)).toContain('You cannot edit this page');
  });

  test('a refused forged share form says why without offering the form', async () => {
    const draft = await store(async (s) => {
      await s.putPage({ slug: 'secret-draft', title: 'Secret', summary: '', body: 'SECRET.' });
      return s.getPage('secret-draft', { draft: true });
    });
    expect(draft).not.toBeNull();
    const refused = await press(
      WRITER,
      '/preview/secret-draft',
      await html(EDITOR, '/preview/secret-draft'),
      'Create share link',
      { ttl: '7d' },
    );
    expect(refused.status).toBe(403);
    const body = await refused.text();
    expect(words(body)).toContain('You cannot share this page');
    expect(body.includes('Create share link')).toBe(false);
    expect(body.includes('?share=')).toBe(false);
  });
});

describe('L4: the Origin is compared with its scheme', () => {
  test('a POST from the same host over https, to this http site, is refused', async () => {
    const tab = await html(EDITOR, '/preview/nobodys');
    const form = await formWithButton(tab, 'Publish this draft');
    const otherScheme = folio.url.replace(/^http:/, 'https:');
    const refused = await submitForm(`${folio.url}/preview/nobodys`, form, {
      cookie: cookies[EDITOR],
      button: 'Publish this draft',
      headers: { origin: otherScheme },
    });
    expect(refused.status).toBe(403);
    expect((await page('nobodys')).state).toBe('draft-only');
    const same = await submitForm(`${folio.url}/preview/nobodys`, form, {
      cookie: cookies[EDITOR],
      button: 'Publish this draft',
    });
    expect(same.status).toBe(303);
    expect((await page('nobodys')).state).toBe('published');
  });
});

/** An action's id, as the build's browser code holds it. */
async function actionIdOf(action: string): Promise<string> {
  for await (const path of new Bun.Glob('dist/public/assets/*.js').scan('.'))
    for (const [, id] of (await Bun.file(path).text()).matchAll(
      new RegExp(`([0-9a-f]{12})#${action}\\b`, 'g'),
    ))
      if (id) return id;
  throw new Error(`the build names no ${action} (bun run build first)`);
}
