// Roles (issue 28) against the server as the README starts it: each person signed in with a
// session of their own, the forms taken from the pages an Owner sees (who sees every button)
// and posted with a lesser person's session — forged fields from a valid session, as a hostile
// Contributor would. What the table (src/lib/editors/permissions.ts) refuses is a 403 in words
// and changes nothing; what it allows goes through.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor, createSession } from '../../src/lib/editors/accounts';
import type { Role } from '../../src/lib/editors/permissions';
import { SESSION_COOKIE } from '../../src/lib/http/routes';
import { formWithButton, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

let folio: RunningFolio;
const cookies = new Map<Role, string>();
const ids = new Map<Role, number>();
const PASSWORD = 'the roles passphrase';

beforeAll(async () => {
  folio = await startFolio();
  const db = await folio.database();
  // The first person is the Owner; the others are given their roles as the CLI gives them.
  for (const role of ['owner', 'administrator', 'editor', 'author', 'contributor'] as const) {
    const editor = await addEditor(db, `${role}@example.com`, PASSWORD, {
      role: role === 'owner' ? undefined : role,
    });
    expect(editor.role).toBe(role);
    ids.set(role, editor.id);
    // A session minted as a sign-in mints it: the sign-in throttle counts per address, and
    // five sign-ins from one address in a second are not what this test is about.
    const session = await createSession(db.query, editor.id);
    cookies.set(role, `${SESSION_COOKIE}=${session.id}`);
  }
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

const get = (path: string, role: Role) =>
  fetch(`${folio.url}${path}`, {
    headers: { cookie: cookies.get(role) ?? '' },
    redirect: 'manual',
  });

/** A page made by `role` (its maker: what "their own" means), with a draft, unpublished. */
async function pageOf(role: Role | null, slug: string): Promise<number> {
  return withStore(folio, async (store) => {
    await store.putPage({ slug, title: `Made by ${role}`, summary: '', body: 'Text.' });
    const page = await store.getPage(slug, { draft: true });
    if (!page) throw new Error(`no page ${slug}`);
    const db = await folio.database();
    await db.query`UPDATE pages SET created_by = ${role ? (ids.get(role) ?? null) : null} WHERE id = ${page.id}`;
    return page.id;
  });
}

async function stateOf(slug: string) {
  return withStore(folio, async (store) => {
    const page = await store.getPage(slug, { draft: true });
    return { state: page?.state, version: page?.version, title: page?.title };
  });
}

/**
 * The editor form of `slug` as its Owner sees it, posted by `role` — saved, or published (the
 * banner's Publish submits the same form with `intent=publish`).
 */
async function postEditor(
  slug: string,
  role: Role,
  button: 'Save' | 'Publish',
  set: Record<string, string>,
) {
  const html = await (await get(`/preview/${slug}?edit`, 'owner')).text();
  const form = await formWithButton(html, 'Save draft');
  return submitForm(`${folio.url}/preview/${slug}?edit`, form, {
    cookie: cookies.get(role),
    ...(button === 'Publish'
      ? { set: { ...set, intent: 'publish' } }
      : { button: 'Save draft', set }),
  });
}

describe('screens', () => {
  test('Site settings, topics and redirects open for those whose role allows them; others get a 403 in words', async () => {
    for (const [path, action] of [
      ['/preview?settings', 'change site settings'],
      ['/preview?redirects', 'change redirects'],
      ['/preview?topics', 'edit topics'],
      ['/preview?navigation', 'change site settings'],
    ] as const) {
      const refused = await get(path, 'author');
      expect(refused.status).toBe(403);
      const html = await refused.text();
      // Booleans, not the page: a failure prints a line, not a whole document.
      expect(html.includes(`You cannot ${action}: Authors may not.`)).toBe(true);
      expect(html.includes('Not for your role')).toBe(true);
      expect((await get(path, 'administrator')).status).toBe(200);
    }
    // An Editor tidies topics and redirects, not the site's settings.
    expect((await get('/preview?topics', 'editor')).status).toBe(200);
    expect((await get('/preview?settings', 'editor')).status).toBe(403);
  });

  test('the bar links only the screens the person may open', async () => {
    const links = (html: string) => ({
      settings: html.includes('href="/preview?settings"'),
      redirects: html.includes('href="/preview?redirects"'),
      topics: html.includes('href="/preview?topics"'),
      developer: html.includes('href="/preview?developer"'),
      menus: html.includes('href="/preview?navigation"'),
    });
    expect(links(await (await get('/preview', 'contributor')).text())).toEqual({
      settings: false,
      redirects: false,
      topics: false,
      developer: false,
      menus: false,
    });
    expect(links(await (await get('/preview', 'editor')).text())).toEqual({
      settings: false,
      redirects: true,
      topics: true,
      developer: false,
      menus: false,
    });
    expect(links(await (await get('/preview', 'owner')).text())).toEqual({
      settings: true,
      redirects: true,
      topics: true,
      developer: true,
      menus: true,
    });
  });
});

describe('actions, posted with a valid session and forged fields', () => {
  test('a Contributor’s publish of their own page is refused in words and publishes nothing', async () => {
    await pageOf('contributor', 'contributor-own');
    const before = await stateOf('contributor-own');
    const response = await postEditor('contributor-own', 'contributor', 'Publish', {
      title: 'Contributor published this',
    });
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(html.includes('You cannot publish this page: Contributors may not.')).toBe(true);
    // The typed text is kept in the form.
    expect(html.includes('Contributor published this')).toBe(true);
    expect(await stateOf('contributor-own')).toEqual(before);
    // Saving their own draft is theirs to do.
    const saved = await postEditor('contributor-own', 'contributor', 'Save', {
      title: 'Contributor saved this',
    });
    expect(saved.status).toBe(303);
    expect((await stateOf('contributor-own')).title).toBe('Contributor saved this');
  });

  test('an Author edits and publishes their own page, and cannot touch another’s by its id', async () => {
    await pageOf('author', 'author-own');
    const published = await postEditor('author-own', 'author', 'Publish', {
      title: 'By the author',
    });
    expect(published.status).toBe(303);
    expect(await stateOf('author-own')).toMatchObject({
      state: 'published',
      title: 'By the author',
    });

    await pageOf('editor', 'editors-page');
    const before = await stateOf('editors-page');
    const refused = await postEditor('editors-page', 'author', 'Save', { title: 'Taken over' });
    expect(refused.status).toBe(403);
    expect((await refused.text()).includes('You cannot edit this page: Authors may not.')).toBe(
      true,
    );
    expect(await stateOf('editors-page')).toEqual(before);
    // A page made before roles (or by the CLI) is nobody's own: Editors act on it.
    await pageOf(null, 'nobodys-page');
    expect((await postEditor('nobodys-page', 'author', 'Save', { title: 'x' })).status).toBe(403);
    expect(
      (await postEditor('nobodys-page', 'editor', 'Save', { title: 'By an editor' })).status,
    ).toBe(303);
  });

  test('a banner command refused lands on the page with the forbidden notice, nothing changed', async () => {
    await pageOf('editor', 'editor-published');
    expect(
      (await postEditor('editor-published', 'editor', 'Publish', { title: 'Live' })).status,
    ).toBe(303);
    const html = await (await get('/preview/editor-published', 'owner')).text();
    const form = await formWithButton(html, 'Unpublish');
    const response = await submitForm(`${folio.url}/preview/editor-published`, form, {
      cookie: cookies.get('contributor'),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toContain('notice=forbidden');
    expect((await stateOf('editor-published')).state).toBe('published');
  });

  test('a page an editor makes in the editor is theirs', async () => {
    const html = await (await get('/preview?new', 'owner')).text();
    const form = await formWithButton(html, 'Create draft');
    const made = await submitForm(`${folio.url}/preview?new`, form, {
      cookie: cookies.get('contributor'),
      button: 'Create draft',
      set: { title: 'A contributor’s page', slug: 'contributors-new', body: 'Mine.' },
    });
    expect(made.status).toBe(303);
    const db = await folio.database();
    const [row] = await db.query<{ created_by: number | string }>`
      SELECT created_by FROM pages WHERE slug = 'contributors-new'`;
    expect(Number(row?.created_by)).toBe(ids.get('contributor') ?? -1);
  });
});
