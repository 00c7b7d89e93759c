// Issue 28's hostile pass, findings 1 and 2 (fixd), through the real server as the README
// starts it, with the no-JavaScript editor form a browser posts:
// 1. A reviewer schedules a Contributor's reviewed draft; the Contributor then edits it. The
//    unreviewed text must not go live at the due time on the reviewer's behalf: the save cancels
//    the schedule (in its transaction) and the draft is waiting for review again, as it says.
//    The editor's autosave (JavaScript) says so too: its answer names the cancel, and the banner
//    then says "The scheduled publish was cancelled: it needs review again."
// 2. A Contributor may not change the address of their published page (the old one would 301,
//    and the new one could take an Editor's redirect source): refused in words, text kept.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import { addEditor } from '../../src/lib/editors/accounts';
import { callAction } from '../action-call';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio, withStore } from '../harness';

const OWNER = { email: 'owner@example.com', password: 'the owner passphrase' };
const EDITOR = { email: 'editor@example.com', password: 'the editor passphrase' };
const WRITER = { email: 'writer@example.com', password: 'the writer passphrase' };
const AUTHOR = { email: 'author@example.com', password: 'the author passphrase' };

describe('review cannot be bypassed by a schedule or a rename', () => {
  let folio: RunningFolio;
  const cookies: Record<string, string> = {};
  const store = <T>(work: (store: ContentStore) => Promise<T>) => withStore(folio, work);
  const html = async (who: string, path: string) =>
    (
      await fetch(`${folio.url}${path}`, {
        headers: { cookie: cookies[who] ?? '' },
        redirect: 'manual',
      })
    ).text();
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
  /** The page's draft, made by `who`, waiting for review (or published first, when asked). */
  const pageOf = async (who: string, slug: string, { published = false } = {}) => {
    await store(async (s) => {
      await s.saveDraft({
        slug,
        title: `Story ${slug}`,
        summary: '',
        body: 'The reviewed text.',
        expectedVersion: null,
        editor: who,
      });
      if (published) await s.publish(slug);
    });
    return page(slug);
  };
  /** Saves the editor form of `slug` as `who`, with `set` typed into it. */
  const save = async (who: string, slug: string, set: Record<string, string>) =>
    submitForm(
      `${folio.url}/preview/${slug}?edit`,
      await formWithButton(await html(who, `/preview/${slug}?edit`), 'Save draft'),
      { cookie: cookies[who], set, button: 'Save draft' },
    );
  /** Schedules `slug` from its banner as `who`, a day from now. */
  const schedule = async (who: string, slug: string) => {
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const response = await submitForm(
      `${folio.url}/preview/${slug}`,
      await formWithButton(await html(who, `/preview/${slug}`), 'Schedule'),
      { cookie: cookies[who], set: { publishAt: at.slice(0, 16), publishAtUtc: at } },
    );
    expect(response.headers.get('location')).toContain('notice=scheduled');
  };

  beforeAll(async () => {
    folio = await startFolio();
    const db = await folio.database();
    await addEditor(db, OWNER.email, OWNER.password);
    await addEditor(db, EDITOR.email, EDITOR.password, { role: 'editor' });
    await addEditor(db, WRITER.email, WRITER.password, { role: 'contributor' });
    await addEditor(db, AUTHOR.email, AUTHOR.password, { role: 'author' });
    for (const person of [EDITOR, WRITER, AUTHOR])
      cookies[person.email] = (
        await signInWithForm(folio.url, person.email, person.password)
      ).cookie;
  }, 300_000);
  afterAll(async () => {
    await folio?.stop();
  });

  test('a Contributor’s save after a reviewer scheduled their draft cancels the schedule and asks for review again', async () => {
    const story = await pageOf(WRITER.email, 'scheduled-story');
    await store((s) =>
      s.submitForReview(story.id, { editor: WRITER.email, expectedVersion: story.version }),
    );
    await schedule(EDITOR.email, 'scheduled-story');
    expect(await publishAtOf(story.id)).not.toBeNull();
    // Scheduling answered the request.
    expect(await store((s) => s.reviewOf(story.id))).toBeNull();
    // Before they type, the writer is told (walk-through: they saw nothing of the schedule).
    const told = (await html(WRITER.email, '/preview/scheduled-story'))
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ');
    expect(told.includes(`scheduled by ${EDITOR.email}. A change to the draft cancels it`)).toBe(
      true,
    );

    const saved = await save(WRITER.email, 'scheduled-story', { body: 'An unreviewed claim.' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toContain('notice=saved-unscheduled');
    // Nothing is left to publish it on the reviewer's behalf; it waits for review as it is now.
    expect(await publishAtOf(story.id)).toBeNull();
    const after = await page('scheduled-story');
    expect(after.bodyMarkdown).toBe('An unreviewed claim.');
    expect(await store((s) => s.reviewOf(story.id))).toMatchObject({
      state: 'waiting',
      askedBy: WRITER.email,
      askedVersion: after.version,
    });
    // The schedule's clock, a day and more later, publishes nothing.
    expect(await store((s) => s.publishDue())).toEqual([]);
    expect((await page('scheduled-story')).state).toBe('draft-only');
    // The banner says why.
    const banner = (await html(WRITER.email, '/preview/scheduled-story?notice=saved-unscheduled'))
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ');
    expect(banner.includes('Its scheduled publish is cancelled')).toBe(true);
  });

  test('a Contributor’s autosave that cancels the schedule says so: in its answer, then in the banner', async () => {
    const story = await pageOf(WRITER.email, 'autosaved-story');
    await store((s) =>
      s.submitForReview(story.id, { editor: WRITER.email, expectedVersion: story.version }),
    );
    await schedule(EDITOR.email, 'autosaved-story');
    const current = await page('autosaved-story');
    const fields = {
      slug: 'autosaved-story',
      originalSlug: 'autosaved-story',
      pageId: String(current.id),
      version: String(current.version),
      title: current.title,
      summary: current.summary,
    };
    // The editor's JavaScript autosave, as the page sends it (tests/action-call.ts).
    const saved = await callAction(
      folio.url,
      'autosaveDraft',
      JSON.stringify([{ ...fields, body: 'An autosaved, unreviewed claim.' }]),
      cookies[WRITER.email],
    );
    expect(saved.status).toBe(200);
    expect((await saved.text()).includes('"unscheduled":true')).toBe(true);
    expect(await publishAtOf(story.id)).toBeNull();
    // The editor then shows the banner with the notice the answer named (use-autosave.ts).
    const banner = (
      await html(WRITER.email, '/preview/autosaved-story?edit&notice=autosaved-unscheduled')
    )
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ');
    expect(banner.includes('The scheduled publish was cancelled: it needs review again.')).toBe(
      true,
    );
    // A later autosave, with no schedule left to cancel, says nothing of one.
    const again = await callAction(
      folio.url,
      'autosaveDraft',
      JSON.stringify([
        {
          ...fields,
          version: String((await page('autosaved-story')).version),
          body: 'Another sentence.',
        },
      ]),
      cookies[WRITER.email],
    );
    expect(again.status).toBe(200);
    expect((await again.text()).includes('"unscheduled"')).toBe(false);
  });

  test('a save by someone who may schedule the page keeps its schedule', async () => {
    const mine = await pageOf(AUTHOR.email, 'authors-scheduled-story');
    await schedule(AUTHOR.email, 'authors-scheduled-story');
    const byAuthor = await save(AUTHOR.email, 'authors-scheduled-story', { body: 'Edited.' });
    expect(byAuthor.headers.get('location')).toContain('notice=saved');
    expect(byAuthor.headers.get('location')).not.toContain('saved-unscheduled');
    expect(await publishAtOf(mine.id)).not.toBeNull();
    // An Editor's edit of the Contributor's scheduled page keeps it too.
    const theirs = await pageOf(WRITER.email, 'edited-by-an-editor');
    await schedule(EDITOR.email, 'edited-by-an-editor');
    await save(EDITOR.email, 'edited-by-an-editor', { body: 'Tidied.' });
    expect(await publishAtOf(theirs.id)).not.toBeNull();
  });

  test('a Contributor cannot change the address of their published page; the text is kept', async () => {
    const live = await pageOf(WRITER.email, 'live-story', { published: true });
    const refused = await save(WRITER.email, 'live-story', {
      slug: 'promo',
      title: 'My typed title',
    });
    expect(refused.status).toBe(403);
    const body = await refused.text();
    expect(body.includes('You cannot change the address of this published page')).toBe(true);
    expect(body.includes('My typed title')).toBe(true);
    expect((await page('live-story')).id).toBe(live.id);
    expect(await store((s) => s.getPage('promo', { draft: true }))).toBeNull();
    // Their own draft-only page they may still rename; an Editor may rename the published one.
    await pageOf(WRITER.email, 'draft-story');
    const renamed = await save(WRITER.email, 'draft-story', { slug: 'draft-story-renamed' });
    expect(renamed.status).toBe(303);
    expect((await page('draft-story-renamed')).state).toBe('draft-only');
    const byEditor = await save(EDITOR.email, 'live-story', { slug: 'live-story-moved' });
    expect(byEditor.status).toBe(303);
    expect((await page('live-story-moved')).id).toBe(live.id);
  });
});
