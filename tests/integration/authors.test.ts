// Authors' profiles (issue 27) against the server as the README starts it: the editor's own
// profile screen without JavaScript — made, refused with the typed text kept, stale — and its
// place in the bar.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addEditor } from '../../src/lib/editors/accounts';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import { type RunningFolio, startFolio } from '../harness';

const EDITOR = { email: 'grace@example.com', password: 'the grace passphrase' };

describe('the author profile screen', () => {
  let folio: RunningFolio;
  let cookie = '';
  const get = (address: string) =>
    fetch(`${folio.url}${address}`, { headers: { cookie }, redirect: 'manual' });

  beforeAll(async () => {
    folio = await startFolio();
    await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
    cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
  }, 60_000);
  afterAll(() => folio?.stop(), 30_000);

  test('is linked from the bar, starts from the email’s name, saves, and refuses stale forms', async () => {
    const dashboard = await (await get('/preview')).text();
    expect(dashboard).toContain('href="/preview?profile"');
    const screen = await (await get('/preview?profile')).text();
    expect(screen).toContain('Your profile');
    expect(screen).toMatch(/name="slug"[^>]*value="grace"/);
    const form = await formWithButton(screen, 'Save profile');

    const refused = await submitForm(`${folio.url}/preview?profile`, form, {
      cookie,
      set: { name: 'Grace Hopper', slug: 'about', bio: 'Kept bio.', links: 'ftp://x' },
    });
    expect(refused.status).toBe(422);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain('Each link is a full http(s) address');
    expect(refusedHtml).toContain('Kept bio.');

    const made = await submitForm(`${folio.url}/preview?profile`, form, {
      cookie,
      set: {
        name: 'Grace Hopper',
        slug: 'grace',
        bio: 'Compilers.',
        links: 'https://example.com/g',
      },
    });
    expect(made.status).toBe(303);
    expect(made.headers.get('location')).toBe('/preview?profile&notice=profile-saved');
    const saved = await (await get('/preview?profile&notice=profile-saved')).text();
    expect(saved).toContain('Profile saved.');
    expect(saved).toMatch(/name="name"[^>]*value="Grace Hopper"/);

    // The first form again (made before the save): refused, its text kept.
    const stale = await submitForm(`${folio.url}/preview?profile`, form, {
      cookie,
      set: { name: 'Grace B. Hopper', slug: 'grace', bio: 'Stale.', links: '' },
    });
    expect(stale.status).toBe(409);
    const staleHtml = await stale.text();
    expect(staleHtml).toContain('changed since you opened this form');
    expect(staleHtml).toContain('Grace B. Hopper');
    // A page cannot take the author's address now.
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('signed out, the screen is the sign-in form', async () => {
    const response = await fetch(`${folio.url}/preview?profile`);
    expect(await response.text()).toContain('Sign in');
  });
});
