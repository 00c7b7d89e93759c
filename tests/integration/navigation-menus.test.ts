// Menus (issue 27) through the no-JavaScript form and the public pages, against the server as
// the README starts it: each button is a submit that comes back changed and unsaved; Save
// saves, refuses a script address or a stale tab in words with what was typed kept; visitors'
// pages show the labels and links (external ones rel="noopener"), leave an unpublished page
// out, and change — cached pages too — when the menus or a menu page's title change.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import { addEditor } from '../../src/lib/editors/accounts';
import { formWithButton, type HtmlForm, signInWithForm } from '../forms';
import { type RunningFolio, seededDatabase, startFolio, withStore } from '../harness';

const EDITOR = { email: 'menus@example.com', password: 'the menus passphrase' };
const SCREEN = '/preview?navigation';

describe('menus', () => {
  let folio: RunningFolio;
  let cookie = '';
  const store = <T>(work: (store: ContentStore) => Promise<T>) => withStore(folio, work);
  const html = async (path: string, withCookie = '') =>
    (
      await fetch(`${folio.url}${path}`, { headers: withCookie ? { cookie: withCookie } : {} })
    ).text();
  const screenForm = async () => formWithButton(await html(SCREEN, cookie), 'Save menus');
  /** Posts the form's fields as they are (repeated names in order), with `intent` pressed. */
  const post = (fields: [string, string][], intent: string, who = cookie) => {
    const body = new FormData();
    for (const [name, value] of fields) if (name !== 'intent') body.append(name, value);
    body.append('intent', intent);
    return fetch(`${folio.url}${SCREEN}`, {
      method: 'POST',
      body,
      redirect: 'manual',
      headers: { origin: folio.url, accept: 'text/html', cookie: who },
    });
  };
  /** The entries a form holds, as `menu:page-or-link:label`. */
  const entriesOf = (form: HtmlForm) => {
    const values = (name: string) => form.fields.filter(([field]) => field === name);
    const pages = values('page');
    const labels = values('label');
    const urls = values('url');
    return values('menu').map(
      ([, menu], index) =>
        `${menu}:${pages[index]?.[1] || urls[index]?.[1]}:${labels[index]?.[1] ?? ''}`,
    );
  };
  const idOf = async (slug: string) =>
    (await store((s) => s.getPage(slug, { draft: true })))?.id ?? 0;
  const headerOf = (page: string) =>
    page.slice(page.indexOf('<header class="site-header">'), page.indexOf('</header>'));
  const footerOf = (page: string) =>
    page.slice(page.indexOf('<footer class="site-footer'), page.indexOf('</footer>'));

  beforeAll(async () => {
    folio = await startFolio({ database: await seededDatabase() });
    await addEditor(await folio.database(), EDITOR.email, EDITOR.password);
    cookie = (await signInWithForm(folio.url, EDITOR.email, EDITOR.password)).cookie;
  }, 60_000);
  afterAll(async () => {
    await folio?.stop();
  });
  // Each test starts from the demo's header (issue 25's four pages) and no footer menu.
  beforeEach(async () => {
    const ids: number[] = [];
    for (const slug of ['getting-started', 'writing-in-markdown', 'about', 'contact'])
      ids.push(await idOf(slug));
    await store(async (s) =>
      s.saveSiteSettings({ ...(await s.getSiteSettings()), navigation: ids, footerMenu: [] }),
    );
  });

  test('without JavaScript: Move down, Add a link and Remove come back made, unsaved; Save saves', async () => {
    const [started, markdown, about, contact] = await Promise.all(
      ['getting-started', 'writing-in-markdown', 'about', 'contact'].map(idOf),
    );
    const form = await screenForm();
    expect(entriesOf(form)).toEqual([
      `header:${started}:`,
      `header:${markdown}:`,
      `header:${about}:`,
      `header:${contact}:`,
    ]);
    const moved = await post(form.fields, 'down:0');
    expect(moved.status).toBe(200);
    const movedHtml = await moved.text();
    expect(movedHtml).toContain('Getting started moved to 2 of 4 in the header.');
    const afterMove = await formWithButton(movedHtml, 'Save menus');
    expect(entriesOf(afterMove).slice(0, 2)).toEqual([`header:${markdown}:`, `header:${started}:`]);
    // Nothing saved yet.
    expect(headerOf(await html('/')).indexOf('Getting started')).toBeLessThan(
      headerOf(await html('/')).indexOf('Writing in Markdown'),
    );

    const withLink = await formWithButton(
      await (await post(afterMove.fields, 'add-link:footer')).text(),
      'Save menus',
    );
    expect(entriesOf(withLink).at(-1)).toBe('footer::');
    const removed = await formWithButton(
      await (await post(withLink.fields, 'remove:3')).text(),
      'Save menus',
    );
    expect(entriesOf(removed)).toEqual([
      `header:${markdown}:`,
      `header:${started}:`,
      `header:${about}:`,
      'footer::',
    ]);

    // Type a label for a page and the footer link, then save.
    const fields = removed.fields.map(([name, value], index): [string, string] => {
      const labelAt = removed.fields.filter(([field], at) => field === 'label' && at <= index);
      if (name === 'label' && labelAt.length === 1) return [name, 'Write in Markdown'];
      if (name === 'label' && labelAt.length === 4) return [name, 'Our shop'];
      if (
        name === 'url' &&
        removed.fields.filter(([f], at) => f === 'url' && at <= index).length === 4
      )
        return [name, 'https://shop.example.com/'];
      return [name, value];
    });
    const saved = await post(fields, 'save');
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/preview?navigation&notice=menus-saved');

    const home = await html('/about');
    const header = headerOf(home);
    expect(header.indexOf('Write in Markdown')).toBeLessThan(header.indexOf('Getting started'));
    expect(header).not.toContain('>Contact<');
    expect(header).toMatch(
      /<a [^>]*href="\/about"[^>]*aria-current="page"|aria-current="page"[^>]*href="\/about"/,
    );
    const footer = footerOf(home);
    expect(footer).toContain('aria-label="Footer"');
    expect(footer).toMatch(/<a href="https:\/\/shop\.example\.com\/" rel="noopener">Our shop<\/a>/);
    expect(footer).not.toContain('target=');
  });

  test('a script address, an unlabelled link and a page unpublished since are refused in words, typed text kept', async () => {
    const form = await screenForm();
    const withLink = await formWithButton(
      await (await post(form.fields, 'add-link:header')).text(),
      'Save menus',
    );
    for (const [label, url, words] of [
      ['Click me', 'javascript:alert(document.cookie)', 'not javascript:'],
      ['Data', 'data:text/html,<b>x</b>', 'not data:'],
      ['Relative', '/about', 'is not a whole address'],
      ['', 'https://example.com/', 'Give each link a label.'],
    ] as const) {
      const fields = withLink.fields.map(([name, value], index): [string, string] => {
        const last = (field: string) =>
          withLink.fields.findLastIndex(([each]) => each === field) === index;
        if (name === 'label' && last('label')) return [name, label];
        if (name === 'url' && last('url')) return [name, url];
        return [name, value];
      });
      const refused = await post(fields, 'save');
      expect(refused.status, url).toBe(422);
      const page = await refused.text();
      expect(page).toContain('role="alert"');
      expect(page).toContain(words);
      // What was typed comes back to be corrected.
      expect(entriesOf(await formWithButton(page, 'Save menus')).at(-1)).toBe(
        `header:${url}:${label}`,
      );
    }
    expect(headerOf(await html('/'))).not.toContain('javascript:');

    // A page added, then unpublished before the save: refused, not dropped silently.
    await store((s) =>
      s.putPage(
        { slug: 'menu-soon-gone', title: 'Soon gone', summary: '', body: 'x' },
        { publish: true },
      ),
    );
    const gone = await idOf('menu-soon-gone');
    const added = await formWithButton(
      await (await post(form.fields, `add-page:footer:${gone}`)).text(),
      'Save menus',
    );
    expect(entriesOf(added).at(-1)).toBe(`footer:${gone}:`);
    await store((s) => s.unpublish('menu-soon-gone'));
    const refused = await post(added.fields, 'save');
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('not published');
  });

  test('a stale tab’s save is refused (409) with its menus kept; a forged form is a 400', async () => {
    const form = await screenForm();
    await store(async (s) =>
      s.saveSiteSettings({ ...(await s.getSiteSettings()), title: 'Changed in another tab' }),
    );
    const stale = await post(form.fields, 'down:1').then(async (moved) =>
      post((await formWithButton(await moved.text(), 'Save menus')).fields, 'save'),
    );
    expect(stale.status).toBe(409);
    const page = await stale.text();
    expect(page).toContain('the settings were changed since you opened this form');
    // Saving again (the form now carries the new version) is a choice made knowing it.
    const again = await post((await formWithButton(page, 'Save menus')).fields, 'save');
    expect(again.status).toBe(303);

    const forged = await post([...form.fields, ['menu', 'header']], 'save');
    expect(forged.status).toBe(400);
    // Signed out: the sign-in page hands the menus back in words, nothing saved.
    const signedOut = await post(form.fields, 'save', 'folio_session=forged');
    expect(signedOut.status).toBe(401);
    const handedBack = await signedOut.text();
    expect(handedBack).toContain('Your session had ended, so nothing was saved.');
    expect(handedBack).toContain('1. Getting started');
  });

  test('an unpublished page drops out of the menus; a menu page’s new title shows on every cached page', async () => {
    const about = await idOf('about');
    const contact = await idOf('contact');
    await store(async (s) =>
      s.saveSiteSettings({
        ...(await s.getSiteSettings()),
        navigation: [{ page: about, label: 'Who we are' }],
        footerMenu: [contact],
      }),
    );
    // Cached: the same page twice.
    const first = await html('/getting-started');
    expect(await html('/getting-started')).toBe(first);
    expect(headerOf(first)).toContain('Who we are');
    expect(footerOf(first)).toContain('>Contact</a>');

    const view = await store((s) => s.getPage('contact', { draft: true }));
    if (!view) throw new Error('no contact page');
    await store((s) =>
      s.putPage(
        { slug: 'contact', title: 'Write to us', summary: view.summary, body: view.bodyMarkdown },
        { publish: true },
      ),
    );
    expect(footerOf(await html('/getting-started'))).toContain('>Write to us</a>');

    await store((s) => s.unpublish('about'));
    try {
      expect(headerOf(await html('/getting-started'))).not.toContain('Who we are');
    } finally {
      const aboutView = await store((s) => s.getPage('about', { draft: true }));
      if (aboutView)
        await store((s) =>
          s.putPage(
            {
              slug: 'about',
              title: aboutView.title,
              summary: aboutView.summary,
              body: aboutView.bodyMarkdown,
            },
            { publish: true },
          ),
        );
    }
    // Published again, it is back in its place under its label.
    expect(headerOf(await html('/getting-started'))).toContain('Who we are');
  });
});
