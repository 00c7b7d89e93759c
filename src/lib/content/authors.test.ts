import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { openTestDatabase } from '../../../tests/databases';
import { addEditor, removeEditor } from '../editors/accounts';
import { createMediaStore, processImage } from '../media/media';
import { photoHashOf } from './authors';
import { type ContentStore, createContentStore } from './content';

// Authors' profiles (issue 27) on the run's engine.
describe('author profiles', () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let store: ContentStore;
  let ada = 0;
  let bob = 0;
  let photo = '';
  beforeAll(async () => {
    db = await openTestDatabase();
    store = createContentStore(db);
    ada = (await addEditor(db, 'ada@example.com', 'the ada passphrase')).id;
    bob = (await addEditor(db, 'bob@example.com', 'the bob passphrase')).id;
    await store.putPage(
      { slug: 'about', title: 'About', summary: '', body: 'x' },
      { publish: true },
    );
    const bytes = await sharp({
      create: { width: 60, height: 60, channels: 3, background: '#aa3366' },
    })
      .png()
      .toBuffer();
    photo = (
      await createMediaStore(db).add(await processImage(new Uint8Array(bytes)), {
        alt: 'Ada',
        filename: 'ada.png',
      })
    ).hash;
  });
  afterAll(() => db.dispose());

  const input = (over: Partial<Record<string, string>> = {}) => ({
    slug: 'ada',
    name: 'Ada Lovelace',
    bio: 'Writes about engines.',
    photo: '',
    links: '',
    ...over,
  });
  const refusal = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('not refused');
  };

  test('a photo is named by its hash, its address or the library’s Markdown', () => {
    const hash = '0123456789abcdef0123456789abcdef';
    expect(photoHashOf(hash)).toBe(hash);
    expect(photoHashOf(`/media/${hash}`)).toBe(hash);
    expect(photoHashOf(`![Ada](/media/${hash})`)).toBe(hash);
    expect(photoHashOf('https://example.com/a.png')).toBeNull();
  });

  test('is made on first save, read back, and changed with the version the form showed', async () => {
    expect(await store.authorOfEditor(ada)).toBeNull();
    const made = await store.saveAuthorProfile(
      ada,
      input({ photo: `![Ada](/media/${photo})`, links: 'https://example.com/ada\n\n' }),
      { updatedAt: null },
    );
    expect(made).toMatchObject({
      slug: 'ada',
      name: 'Ada Lovelace',
      photo,
      links: ['https://example.com/ada'],
    });
    expect(await store.authorOfEditor(ada)).toEqual(made);
    expect(
      await refusal(store.saveAuthorProfile(ada, input({ name: 'Ada' }), { updatedAt: null })),
    ).toMatch(/changed since you opened/);
    const renamed = await store.saveAuthorProfile(ada, input({ name: 'Ada L.' }), {
      updatedAt: made.updatedAt,
    });
    expect(renamed.name).toBe('Ada L.');
  });

  test('refuses in words: a page’s or another author’s address, a bad field, an unknown photo', async () => {
    await store.putPage(
      { slug: 'was-here', title: 'Moved', summary: '', body: 'x' },
      { publish: true },
    );
    await store.renameSlug('was-here', 'moved-on');
    const cases: [Partial<Record<string, string>>, RegExp][] = [
      [{ slug: 'about' }, /a page is at \/about/],
      // A renamed page's old address sends every full load to the page: never to the author.
      [{ slug: 'was-here' }, /\/was-here is an old address of \/moved-on/],
      [{ slug: 'ada' }, /another author is at \/ada/],
      [{ slug: 'preview' }, /reserved/],
      [{ slug: 'Not A Slug' }, /lowercase letters/],
      [{ name: '  ' }, /Enter the name/],
      [{ name: 'x'.repeat(101) }, /at most 100/],
      [{ bio: 'x'.repeat(601) }, /at most 600/],
      [{ links: 'javascript:alert(1)' }, /full http\(s\) address/],
      [
        { links: Array.from({ length: 6 }, (_, i) => `https://e.com/${i}`).join('\n') },
        /At most 5/,
      ],
      [{ photo: 'not a photo' }, /Choose a photo/],
      [{ photo: '0123456789abcdef0123456789abcdef' }, /not in the media library/],
    ];
    for (const [over, message] of cases)
      expect(
        await refusal(store.saveAuthorProfile(bob, input({ slug: 'bob', ...over }))),
        JSON.stringify(over),
      ).toMatch(message);
    expect(await store.authorOfEditor(bob)).toBeNull();
  });

  test('a page cannot take an author’s address, nor a rename', async () => {
    expect(
      await refusal(store.putPage({ slug: 'ada', title: 'Ada', summary: '', body: 'x' })),
    ).toMatch(/An author’s page is at \/ada/);
    expect(await refusal(store.renameSlug('about', 'ada'))).toMatch(/An author’s page is at \/ada/);
  });

  test('a changed address leaves the old one leading to the new, until something takes it', async () => {
    const cy = (await addEditor(db, 'cy@example.com', 'the cy passphrase')).id;
    const dee = (await addEditor(db, 'dee@example.com', 'the dee passphrase')).id;
    const save = async (editor: number, slug: string, name = 'Cy') =>
      store.saveAuthorProfile(editor, input({ slug, name }));
    const where = async (slug: string) => ({
      visitors: await store.findRedirect(slug),
      editors: await store.findRedirect(slug, { draft: true }),
      feed: await store.renamedAuthorSlug(slug),
    });
    const to = (slug: string | null) => ({ visitors: slug, editors: slug, feed: slug });
    await save(cy, 'cy');
    await save(cy, 'cy-new');
    // Nobody sees Cy yet (no published post): no redirect to a 404.
    expect(await where('cy')).toEqual(to(null));
    await store.putPage(
      {
        slug: 'cy-post',
        title: 'By Cy',
        summary: '',
        body: 'x',
        post: { kind: 'post', topics: ['Looms'], authors: ['cy-new'] },
      },
      { publish: true },
    );
    expect(await where('cy')).toEqual(to('cy-new'));
    expect(await where('cy-new')).toEqual(to(null));
    // Back again: the new address is nobody's old one any more.
    await save(cy, 'cy');
    expect(await where('cy-new')).toEqual(to('cy'));
    expect(await where('cy')).toEqual(to(null));
    await save(cy, 'cy-new');
    // Another author may take the old address: theirs, not a redirect.
    await save(dee, 'cy', 'Dee');
    expect(await where('cy')).toEqual(to(null));
    await save(dee, 'dee', 'Dee');
    expect(await where('cy')).toEqual(to(null));
    // A page there wins it (a draft for editors only); a topic with posts too.
    await save(cy, 'cy-3');
    expect(await where('cy-new')).toEqual(to('cy-3'));
    await store.putPage({ slug: 'cy-new', title: 'A page', summary: '', body: 'x' });
    expect(await where('cy-new')).toEqual({ visitors: 'cy-3', editors: null, feed: 'cy-3' });
    await store.publish('cy-new');
    expect(await where('cy-new')).toEqual(to(null));
    await save(cy, 'cy-4');
    expect(await where('cy-3')).toEqual(to('cy-4'));
    const post = { kind: 'post' as const, topics: ['Cy 3'], authors: [] };
    await store.putPage({ slug: 'woven', title: 'Woven', summary: '', body: 'x', post });
    expect((await store.getTopic('cy-3'))?.name).toBe('Cy 3');
    expect(await where('cy-3')).toEqual({ visitors: 'cy-4', editors: null, feed: 'cy-4' });
    await store.publish('woven');
    expect(await where('cy-3')).toEqual(to(null));
    // Renamed, the topic keeps its old address: no author may take it (it leads to the topic).
    const topic = await store.getTopic('cy-3');
    await store.updateTopic(topic?.id ?? 0, { name: 'Cy 3', slug: 'cy-three', intro: '' });
    expect(await refusal(save(cy, 'cy-3'))).toMatch(/\/cy-3 is an old address of \/cy-three/);
  });

  test('removing the editor keeps the author (their posts stay attributed)', async () => {
    await store.saveAuthorProfile(bob, input({ slug: 'bob', name: 'Bob' }));
    await removeEditor(db, 'bob@example.com');
    const [row] = await db.query<{ name: string; editor_id: number | null }>`
      SELECT name, editor_id FROM authors WHERE slug = 'bob'`;
    expect(row).toEqual({ name: 'Bob', editor_id: null });
  });
});
