// Hostile review, issue 24: share links outlived the editor who made them. After `editor
// remove`, a password reset or "Sign out everywhere" that editor's 7-day links still opened the
// page's current draft, and nothing capped how many one person made. Through the no-JavaScript
// forms and the real CLI against the server as the README starts it; every test here failed
// before its fix.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SEED_DRAFT_MARKERS } from '../../src/lib/content/seed';
import { addEditor } from '../../src/lib/editors/accounts';
import { createPreviewLink, MAX_OPEN_LINKS_PER_PAGE } from '../../src/lib/share-links/share-links';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, runFolioCli, startFolio, withStore } from '../harness';

const PASSWORD = 'the makers passphrase';
// The seed's draft-only page: a share link to it shows text visitors never see.
const DRAFT_PAGE = '/preview/upcoming-feature';

describe('share links end with their maker’s access', () => {
  let folio: RunningFolio;
  beforeAll(async () => {
    folio = await startFolio();
    // The site's first editor is its Owner, whom `editor remove` refuses (issue 28): the
    // editors below are the ones after.
    await addEditor(await folio.database(), 'owner@example.com', PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await folio?.stop();
  });

  /** A new editor, signed in, who made a 7-day link to the draft through the banner's form. */
  async function editorWithLink(email: string): Promise<{ cookie: string; path: string }> {
    await addEditor(await folio.database(), email, PASSWORD);
    const { cookie } = await signInWithForm(folio.url, email, PASSWORD);
    expect(cookie).toContain('folio_session=');
    const html = await (await fetch(`${folio.url}${DRAFT_PAGE}`, { headers: { cookie } })).text();
    const share = await submitForm(
      `${folio.url}${DRAFT_PAGE}`,
      await formWithButton(html, 'Create share link'),
      { cookie, set: { ttl: '7d' } },
    );
    const link = /value="(http[^"]*\?share=[^"]+)"/
      .exec(await share.text())?.[1]
      ?.replace(/&amp;/g, '&');
    if (!link) throw new Error('no share link was made');
    const url = new URL(link);
    const path = url.pathname + url.search;
    expect(await opensDraft(path)).toBe(true);
    return { cookie, path };
  }

  async function opensDraft(path: string): Promise<boolean> {
    const response = await fetch(`${folio.url}${path}`);
    const html = await response.text();
    return response.status === 200 && html.includes(SEED_DRAFT_MARKERS.draftOnlyPage);
  }

  test('`editor remove` revokes the links the editor made, and says how many', async () => {
    const { path } = await editorWithLink('removed@example.com');
    const run = await runFolioCli(['editor', 'remove', 'removed@example.com'], {
      databaseUrl: folio.databaseUrl,
    });
    expect(run).toMatchObject({
      code: 0,
      stdout: 'editor removed@example.com removed and revoked 1 share link they made\n',
    });
    expect(await opensDraft(path)).toBe(false);
    expect((await fetch(`${folio.url}${path}`)).status).toBe(403);
    // Added again with the same email: the old link stays revoked.
    await addEditor(await folio.database(), 'removed@example.com', PASSWORD);
    expect(await opensDraft(path)).toBe(false);
  }, 60_000);

  test('a password reset (`editor add` on an existing editor) revokes their links, and says so', async () => {
    const { path } = await editorWithLink('reset@example.com');
    const run = await runFolioCli(['editor', 'add', 'reset@example.com'], {
      databaseUrl: folio.databaseUrl,
      stdin: 'a brand new passphrase\n',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'password of reset@example.com reset (Administrator); 1 session(s) ended, 0 second factors (passkeys, authenticator app) removed and revoked 1 share link they made\n',
    );
    expect(await opensDraft(path)).toBe(false);
  }, 60_000);

  test('"Sign out everywhere" revokes the links too (ticked by default), and says how many', async () => {
    const { cookie, path } = await editorWithLink('everywhere@example.com');
    const html = await (await fetch(`${folio.url}/preview`, { headers: { cookie } })).text();
    const form = await formWithButton(html, 'Sign out everywhere');
    // The box is there and ticked without any script.
    expect(form.fields).toContainEqual(['revokeLinks', '1']);
    const response = await submitForm(`${folio.url}/preview`, form, {
      cookie,
      button: 'Sign out everywhere',
    });
    expect(response.status).toBe(303);
    const landing = new URL(response.headers.get('location') ?? '', folio.url);
    expect(landing.pathname + landing.search).toBe(
      '/preview?notice=signed-out-everywhere&links=revoked',
    );
    const after = await (await fetch(landing)).text();
    expect(after).toContain('Signed out everywhere: every session of yours has ended.');
    expect(after).toContain('Any share links you made were revoked.');
    // A hand-made address cannot make it say a number (hostile pass): there is none to say.
    const forged = await (
      await fetch(`${folio.url}/preview?notice=signed-out-everywhere&revoked=999999`)
    ).text();
    expect(forged).not.toContain('999999 share links');
    expect(forged).toContain('Your share links still work.');
    expect(await opensDraft(path)).toBe(false);
  }, 60_000);

  test('"Sign out everywhere" with the box unticked keeps the links, and says so', async () => {
    const { cookie, path } = await editorWithLink('keeps@example.com');
    const html = await (await fetch(`${folio.url}/preview`, { headers: { cookie } })).text();
    const response = await submitForm(
      `${folio.url}/preview`,
      await formWithButton(html, 'Sign out everywhere'),
      { cookie, button: 'Sign out everywhere', set: { revokeLinks: '' } },
    );
    expect(response.status).toBe(303);
    const landing = new URL(response.headers.get('location') ?? '', folio.url);
    const after = await (await fetch(landing)).text();
    expect(after).toContain('Your share links still work.');
    expect(await opensDraft(path)).toBe(true);
    // The session did end everywhere.
    expect((await fetch(`${folio.url}/preview`, { headers: { cookie } })).status).toBe(401);
  }, 60_000);

  test('a page at its cap refuses another link in the banner (409), makes nothing, lists at most the cap', async () => {
    const db = await folio.database();
    const pageId = await withStore(folio, async (store) => {
      await store.putPage({ slug: 'capped', title: 'Capped', summary: '', body: 'CAPPED-DRAFT' });
      return (await store.getPage('capped', { draft: true }))?.id ?? 0;
    });
    for (let i = 0; i < MAX_OPEN_LINKS_PER_PAGE; i++)
      await createPreviewLink(db, { pageId, createdBy: 'cli', ttlSeconds: 3600 });
    await addEditor(db, 'capped@example.com', PASSWORD);
    const { cookie } = await signInWithForm(folio.url, 'capped@example.com', PASSWORD);
    const html = await (await fetch(`${folio.url}/preview/capped`, { headers: { cookie } })).text();
    expect(html).toContain(`${MAX_OPEN_LINKS_PER_PAGE} share links are open`);
    const response = await submitForm(
      `${folio.url}/preview/capped`,
      await formWithButton(html, 'Create share link'),
      { cookie, set: { ttl: '24h' } },
    );
    expect(response.status).toBe(409);
    const answer = await response.text();
    expect(answer).toContain(
      `This page already has ${MAX_OPEN_LINKS_PER_PAGE} open share links: revoke one first.`,
    );
    expect(answer.includes('?share=')).toBe(false);
    const [row] = await db.query<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM preview_links WHERE page_id = ${pageId}`;
    expect(Number(row?.n)).toBe(MAX_OPEN_LINKS_PER_PAGE);
  }, 60_000);
});
