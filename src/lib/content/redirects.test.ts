import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openTestDatabase } from '../../../tests/databases';
import { type ContentStore, createContentStore } from './content';
import { checkRedirect, normaliseFromPath } from './redirects';

// Editors' redirects (issue 27): the rules on their own, then the store on the run's engine.

describe('a redirect’s fields', () => {
  const check = (from: string, to: string, status: 301 | 302 = 301) =>
    checkRedirect({ from, to, status });

  test('addresses are stored as browsers send them: encoded, lower case, no trailing slash', () => {
    expect(normaliseFromPath('/2019/05/Old-Post/')).toBe('/2019/05/old-post');
    expect(normaliseFromPath('//a//b')).toBe('/a/b');
    expect(normaliseFromPath('/café')).toBe('/caf%c3%a9');
    expect(normaliseFromPath('/caf%C3%A9')).toBe('/caf%c3%a9');
    expect(check('/Old/', '/about')).toEqual({
      ok: true,
      redirect: { from: '/old', to: '/about', status: 301 },
    });
    expect(check('/x', 'https://example.com/a?b=1#c', 302)).toMatchObject({
      ok: true,
      redirect: { to: 'https://example.com/a?b=1#c', status: 302 },
    });
    expect(check('/x', '/home')).toMatchObject({ redirect: { to: '/' } });
  });

  test('refuses, in words, what cannot be an address or a target', () => {
    const refused: [string, string, RegExp][] = [
      ['', '/about', /Enter the address/],
      ['old', '/about', /starting with \//],
      ['//evil.example', '/about', /starting with \//],
      ['/a b', '/about', /no spaces/],
      ['/a?x=1', '/about', /no spaces, query/],
      ['/a%zz', '/about', /broken or forbidden %-escape/],
      ['/a%2fb', '/about', /forbidden %-escape/],
      ['/', '/about', /home page cannot/],
      ['/home', '/about', /home page cannot/],
      ['/preview', '/about', /Folio's own/],
      ['/preview/about', '/about', /Folio's own/],
      ['/feed.xml', '/about', /Folio's own/],
      ['/media/0123456789abcdef0123456789abcdef', '/about', /Folio's own/],
      [`/${'a'.repeat(600)}`, '/about', /at most 500/],
      ['/x', '', /Enter where/],
      ['/x', 'javascript:alert(1)', /Only http and https/],
      ['/x', 'data:text/html,hi', /Only http and https/],
      ['/x', 'https://user:pw@example.com/', /user name or password/],
      ['/x', '/Not A Slug', /not a page's address/],
      ['/x', '/preview', /not a page's address/],
      ['/x', '/x', /would loop/],
      ['/x', 'not a url', /full https:\/\/ address/],
      ['/x', `https://example.com/${'a'.repeat(2100)}`, /at most 2000/],
      // Hostile pass of issue 27: these were stored as `/`.
      ['/x', '/\\evil.com', /not a page's address/],
      ['/x', '/.', /not a page's address/],
      ['/x', '/a/../about', /not a page's address/],
    ];
    for (const [from, to, message] of refused) {
      const result = check(from, to);
      expect(result.ok, `${from} → ${to}`).toBe(false);
      if (!result.ok) expect(result.message, `${from} → ${to}`).toMatch(message);
    }
  });
});

describe('the redirects store', () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let store: ContentStore;
  beforeAll(async () => {
    db = await openTestDatabase();
    store = createContentStore(db);
    const page = (slug: string) => ({ slug, title: slug, summary: '', body: slug });
    await store.putPage(page('about'), { publish: true });
    await store.putPage(page('contact'), { publish: true });
    await store.putPage(page('draft-here'));
    await store.putPage(page('moved'), { publish: true });
    await store.renameSlug('moved', 'moved-now');
  });
  afterAll(() => db.dispose());

  const refusal = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('not refused');
  };

  test('adds, finds, lists and removes', async () => {
    const made = await store.addRedirect(
      { from: '/2019/05/Old-Post/', to: '/about', status: 301 },
      { editor: 'ed@example.com' },
    );
    expect(made).toMatchObject({ from: '/2019/05/old-post', createdBy: 'ed@example.com' });
    expect(await store.findSiteRedirect('/2019/05/OLD-POST')).toEqual({
      location: '/about',
      status: 301,
    });
    await store.addRedirect({ from: '/away', to: 'https://example.com/', status: 302 });
    expect(await store.findSiteRedirect('/away')).toEqual({
      location: 'https://example.com/',
      status: 302,
    });
    const listed = await store.listRedirects({ find: 'old' });
    expect(listed.rows.map((row) => row.from)).toEqual(['/2019/05/old-post']);
    expect(listed.total).toBe(2);
    expect(await store.removeRedirect('/away')).toBe(true);
    expect(await store.removeRedirect('/away')).toBe(false);
    expect(await store.findSiteRedirect('/away')).toBeNull();
  });

  test('never shadows a page, never takes a renamed page’s old address, never leads nowhere', async () => {
    expect(
      await refusal(store.addRedirect({ from: '/about', to: '/contact', status: 301 })),
    ).toMatch(/A page is at \/about/);
    // A draft-only page holds its address too: published, it would win.
    expect(
      await refusal(store.addRedirect({ from: '/draft-here', to: '/contact', status: 301 })),
    ).toMatch(/A page is at \/draft-here/);
    expect(
      await refusal(store.addRedirect({ from: '/moved', to: '/contact', status: 301 })),
    ).toMatch(/old address of \/moved-now/);
    expect(await refusal(store.addRedirect({ from: '/x1', to: '/nowhere', status: 301 }))).toMatch(
      /no page at \/nowhere/,
    );
    expect(await refusal(store.addRedirect({ from: '/x1', to: '/moved', status: 301 }))).toMatch(
      /renamed to \/moved-now: redirect straight there/,
    );
  });

  test('refuses chains both ways, and so every loop', async () => {
    await store.addRedirect({ from: '/chain-a', to: '/about', status: 301 });
    expect(
      await refusal(store.addRedirect({ from: '/chain-b', to: '/chain-a', status: 301 })),
    ).toMatch(/\/chain-a itself redirects to \/about/);
    await store.addRedirect({ from: '/chain-c', to: '/contact', status: 301 });
    // chain-c → contact exists; a redirect from /chain-a's target would need a page there: a
    // loop a ↔ b is impossible because b → a is refused as a chain.
    expect(
      await refusal(store.addRedirect({ from: '/chain-a', to: '/contact', status: 301 })),
    ).toMatch(/already redirects to \/about/);
    const replaced = await store.addRedirect(
      { from: '/chain-a', to: '/contact', status: 302 },
      { replace: true },
    );
    expect(replaced.status).toBe(302);
  });

  test('a page published at a redirected address wins', async () => {
    await store.addRedirect({ from: '/later-page', to: '/about', status: 301 });
    expect(await store.findSiteRedirect('/later-page')).not.toBeNull();
    await store.putPage({ slug: 'later-page', title: 'L', summary: '', body: 'L' });
    // A draft is not public: visitors are still sent on.
    expect(await store.findSiteRedirect('/later-page')).not.toBeNull();
    await store.publish('later-page');
    expect(await store.findSiteRedirect('/later-page')).toBeNull();
  });

  test('a file is taken whole or not at all, every refused line named', async () => {
    const before = (await store.listRedirects()).total;
    const refused = await store.importRedirects([
      { line: 2, from: '/imp-1', to: '/about', status: 301 },
      { line: 3, from: '/imp-2', to: 'javascript:x', status: 301 },
      { line: 4, from: '/imp-3', to: '/imp-1', status: 301 },
    ]);
    expect(refused.added).toBe(0);
    expect(refused.problems).toEqual([
      { line: 3, message: 'Only http and https addresses can be redirected to.' },
    ]);
    // Two lines for one address: refused, both named (hostile pass: the last won silently).
    const twice = await store.importRedirects([
      { line: 2, from: '/imp-9', to: '/about', status: 301 },
      { line: 3, from: '/IMP-9/', to: '/contact', status: 301 },
    ]);
    expect(twice).toEqual({
      added: 0,
      problems: [{ line: 3, message: '/imp-9 is redirected on line 2 already.' }],
    });
    const chained = await store.importRedirects([
      { line: 2, from: '/imp-1', to: '/about', status: 301 },
      { line: 3, from: '/imp-3', to: '/imp-1', status: 301 },
    ]);
    expect(chained.added).toBe(0);
    expect(chained.problems[0]).toMatchObject({
      line: 3,
      message: expect.stringMatching(/itself redirects/),
    });
    expect((await store.listRedirects()).total).toBe(before);
    const taken = await store.importRedirects([
      { line: 2, from: '/imp-1', to: '/about', status: 301 },
      { line: 3, from: '/imp-2', to: '/contact', status: 302 },
    ]);
    expect(taken).toEqual({ added: 2, problems: [] });
    const all: string[] = [];
    for await (const redirect of store.eachRedirect(2)) all.push(redirect.from);
    expect(all).toEqual([...all].sort());
    expect(all).toContain('/imp-2');
  });

  // Hostile pass of issue 27: topics and redirects share the pages' addresses.
  test('a topic’s address, old or new, is no redirect’s; a topic is a target; a topic never takes a redirected or renamed address', async () => {
    await store.addRedirect({ from: '/gone-bees', to: '/about', status: 301 });
    await store.putPage(
      {
        slug: 'bee-post',
        title: 'Bees',
        summary: '',
        body: 'b',
        post: { kind: 'post', topics: ['Bees', 'Moved', 'Gone Bees'] },
      },
      { publish: true },
    );
    expect(await refusal(store.addRedirect({ from: '/bees', to: '/about', status: 301 }))).toMatch(
      /The topic “Bees” is at \/bees/,
    );
    expect(await store.addRedirect({ from: '/old-bees', to: '/bees', status: 301 })).toMatchObject({
      to: '/bees',
    });
    const topics = (await store.listTopics()).rows;
    const slugOf = (name: string) => topics.find((topic) => topic.name === name)?.slug;
    // /moved is a renamed page's old address, /gone-bees an editor's redirect: both taken.
    expect(slugOf('Moved')).toBe('moved-2');
    expect(slugOf('Gone Bees')).toBe('gone-bees-2');
    // A topic's rename is listed beside the pages' (hostile pass).
    const bees = topics.find((topic) => topic.name === 'Bees');
    if (!bees) throw new Error('no topic Bees');
    const chainOf = async () =>
      (await store.listRedirects({ find: 'old-bees' })).rows.map((row) => row.chainedTo);
    expect(await chainOf()).toEqual([undefined]);
    await store.updateTopic(bees.id, { name: 'Bees', slug: 'honey-bees', intro: '' });
    expect(await store.listRenameRedirects()).toContainEqual(
      expect.objectContaining({ from: '/bees', to: '/honey-bees' }),
    );
    // Hostile pass 27: /old-bees → /bees → /honey-bees went unflagged; the feed was a 404.
    expect(await chainOf()).toEqual(['/honey-bees']);
    expect(await store.renamedTopicSlug('bees')).toBe('honey-bees');
    expect(await store.renamedTopicSlug('honey-bees')).toBeNull();
  });

  // Issue 27's leftovers: a redirect to a page that is only a draft sent visitors to a 404.
  test('a target only a draft is refused in words, one by one and in a file; one unpublished since is marked', async () => {
    expect(
      await refusal(store.addRedirect({ from: '/to-draft', to: '/draft-here', status: 301 })),
    ).toMatch(/^\/draft-here is not published yet: .*Publish it first/);
    const file = await store.importRedirects([
      { line: 1, from: '/fine', to: '/about', status: 301 },
      { line: 2, from: '/to-draft', to: '/draft-here', status: 302 },
    ]);
    expect(file.added).toBe(0);
    expect(file.problems).toEqual([
      { line: 2, message: expect.stringMatching(/^\/draft-here is not published yet/) },
    ]);
    expect(await store.findSiteRedirect('/fine')).toBeNull();
    // A topic no published post has, and an author with none, are no page for visitors yet.
    await store.putPage({
      slug: 'quiet-draft',
      title: 'Q',
      summary: '',
      body: 'q',
      post: { kind: 'post', topics: ['Quiet Topic'] },
    });
    expect(
      await refusal(store.addRedirect({ from: '/to-quiet', to: '/quiet-topic', status: 301 })),
    ).toMatch(/^\/quiet-topic is not published yet: the topic “Quiet Topic” has no published post/);
    // Published, it is taken; unpublished later, the list says so beside it.
    await store.putPage(
      { slug: 'soon-gone', title: 'S', summary: '', body: 's' },
      { publish: true },
    );
    await store.addRedirect({ from: '/to-soon-gone', to: '/soon-gone', status: 301 });
    const marked = async () =>
      (await store.listRedirects({ find: 'to-soon-gone' })).rows[0]?.unpublishedTarget;
    expect(await marked()).toBeUndefined();
    await store.unpublish('soon-gone');
    expect(await marked()).toMatch(/^\/soon-gone is not published yet/);
    // Others stay unmarked: the home page, another site, a published page.
    const rows = (await store.listRedirects()).rows;
    expect(rows.filter((row) => row.unpublishedTarget).map((row) => row.from)).toEqual([
      '/to-soon-gone',
    ]);
  });

  test('a rename’s redirect is listed beside them', async () => {
    expect(await store.listRenameRedirects()).toContainEqual(
      expect.objectContaining({ from: '/moved', to: '/moved-now' }),
    );
  });
});
