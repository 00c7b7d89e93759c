// The body's Markdown editor as a writer uses it (issue 26): every toolbar action is one undo
// step and earlier typing stays undoable, Ctrl+B/I/K, lists and quotes continue on Enter, the
// link dialog offers the site's pages by title, a URL pasted over a selection makes a link, a
// 1 MB paste keeps every character, emoji and right-to-left text survive a save, rich text from
// a word processor pastes as its text, the whole editor works from the keyboard with its focus
// always shown, and without JavaScript the plain text box still saves.
import type { Locator, Page, Response } from '@playwright/test';
import { BODY_MAX } from '../../src/lib/content/field-limits';
import { bodyEditor, expect, test, withoutCoediting } from './fixtures';

const status = (page: Page) => page.locator('.editor-status');

async function openEditor(page: Page, slug: string) {
  await page.goto(`/preview/${slug}?edit`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const body = bodyEditor(page);
  await body.ready();
  return body;
}

/** A paste as the browser delivers one: a paste event carrying the clipboard's text. */
async function paste(page: Page, text: string) {
  await page.locator('.body-codemirror .cm-content').evaluate((content, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    content.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Formatting' });

test('undo after each toolbar action restores the text; the typing before stays undoable', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-md-undo';
  await seedPage({ slug, title: 'Undo page', body: 'Start.' });
  await signIn(page);
  const body = await openEditor(page, slug);
  await body.typeAtEnd(' Typed words here.');
  const typed = 'Start. Typed words here.';
  await body.expectText(typed);

  const actions: [string, RegExp][] = [
    ['Bold', /\*\*words\*\*/],
    ['Italic', /_words_/],
    ['H2 heading', /^## Start\./],
    ['List', /^- Start\./],
    ['Quote', /^> Start\./],
    ['Code', /`words`/],
  ];
  for (const [name, made] of actions) {
    // "words", selected.
    await body.select(13, 18);
    await toolbar(page).getByRole('button', { name, exact: true }).click();
    await body.expectText(made);
    await page.keyboard.press('Control+z');
    await body.expectText(typed);
  }

  // Typing and a button at once: Undo takes back the button only, then the typing.
  await body.typeAtEnd(' More');
  await toolbar(page).getByRole('button', { name: 'Bold', exact: true }).click();
  await body.expectText(`${typed} More**bold text**`);
  await page.keyboard.press('Control+z');
  await body.expectText(`${typed} More`);

  // The link dialog's insert is one step too.
  await body.select(13, 18);
  await toolbar(page).getByRole('button', { name: 'Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Insert a link' });
  await dialog.getByLabel('Address').fill('https://example.org/words');
  await dialog.getByLabel('Address').press('Enter');
  await expect(dialog).toBeHidden();
  await body.expectText(`Start. Typed [words](https://example.org/words) here. More`);
  await page.keyboard.press('Control+z');
  await body.expectText(`${typed} More`);
  // Redo brings it back.
  await page.keyboard.press('Control+y');
  await body.expectText(/\[words\]\(https:\/\/example\.org\/words\)/);
  await page.keyboard.press('Control+z');

  // Every earlier keystroke is still in the history: Undo walks back to the saved text.
  await expect
    .poll(async () => {
      await page.keyboard.press('Control+z');
      return body.text();
    })
    .toBe('Start.');
});

test('Ctrl+B, Ctrl+I and Ctrl+K format the selection; Escape closes the link dialog', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-md-keys';
  await seedPage({ slug, title: 'Keys page', body: 'one two three' });
  await signIn(page);
  const body = await openEditor(page, slug);
  await body.select(0, 3);
  await page.keyboard.press('Control+b');
  await body.expectText('**one** two three');
  await body.select(8, 11);
  await page.keyboard.press('Control+i');
  await body.expectText('**one** _two_ three');
  // Nothing selected: the placeholder is selected, to be typed over.
  await body.typeAtEnd(' ');
  await page.keyboard.press('Control+b');
  await page.keyboard.type('four');
  await body.expectText('**one** _two_ three **four**');

  await body.select(14, 19);
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Insert a link' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Links “three”');
  // Escape closes it, nothing inserted, and the keys go back to the text.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.locator('.body-codemirror .cm-content')).toBeFocused();
  await body.expectText('**one** _two_ three **four**');
  // Escape in the page search (which a search field would only clear) closes it too.
  await page.keyboard.press('Control+k');
  await dialog.getByLabel('Or find a page on this site').fill('anything');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The keys go back to the text (the next Ctrl+K is the editor's): on a loaded machine the
  // focus came back a moment after the dialog closed, and a Ctrl+K sent before it did nothing.
  await expect(page.locator('.body-codemirror .cm-content')).toBeFocused();
  await page.keyboard.press('Control+k');
  await dialog.getByLabel('Address').fill('https://example.org/three');
  await dialog.getByRole('button', { name: 'Insert link' }).click();
  await body.expectText('**one** _two_ [three](https://example.org/three) **four**');
  await expect(page.locator('.body-codemirror .cm-content')).toBeFocused();
});

test('Enter continues a list or a quote; Enter on an empty item ends it', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-md-lists';
  await seedPage({ slug, title: 'Lists page', body: 'Intro.' });
  await signIn(page);
  const body = await openEditor(page, slug);
  await body.typeAtEnd('\n\n- one\ntwo\n');
  await body.expectText('Intro.\n\n- one\n- two\n- ');
  // Enter on the empty item ends the list with a blank line: what comes next is a paragraph,
  // not more of the last item (Markdown's lazy continuation).
  await page.keyboard.press('Enter');
  await body.expectText('Intro.\n\n- one\n- two\n\n');
  await page.keyboard.type('After.');
  await body.expectText('Intro.\n\n- one\n- two\n\nAfter.');
  // One undo step: the marker is back.
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  await body.expectText('Intro.\n\n- one\n- two\n- ');
  await page.keyboard.press('Control+y');
  await page.keyboard.press('Control+y');
  await body.expectText('Intro.\n\n- one\n- two\n\nAfter.');

  await body.typeAtEnd('\n\n1. first\nsecond\n');
  await body.expectText(/\n\n1\. first\n2\. second\n3\. $/);
  await page.keyboard.press('Enter');
  await body.expectText(/\n\n1\. first\n2\. second\n\n$/);

  await body.typeAtEnd('\n\n> quoted\nstill quoted');
  await body.expectText(/\n\n> quoted\n> still quoted$/);
});

test('the link dialog finds a site page by title and links it', async ({
  page,
  signIn,
  seedPage,
}) => {
  await seedPage({ slug: 'e2e-md-ferry-times', title: 'Ferry timetable', body: 'Boats.' });
  const slug = 'e2e-md-link';
  await seedPage({ slug, title: 'Link page', body: 'See the boats.' });
  await signIn(page);
  const body = await openEditor(page, slug);
  // "the boats" selected: the link is made of it.
  await body.select(4, 13);
  await toolbar(page).getByRole('button', { name: 'Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Insert a link' });
  await dialog.getByLabel('Or find a page on this site').fill('ferry');
  await dialog.getByRole('button', { name: /Ferry timetable/ }).click();
  await expect(dialog).toBeHidden();
  await body.expectText('See [the boats](/e2e-md-ferry-times).');
  // Nothing selected: the page's title is the link's text.
  await body.typeAtEnd(' Also ');
  await page.keyboard.press('Control+k');
  await dialog.getByLabel('Or find a page on this site').fill('timetable');
  await expect(dialog.getByRole('button', { name: /Ferry timetable/ })).toBeVisible();
  await dialog.getByLabel('Or find a page on this site').press('Enter');
  await body.expectText(
    'See [the boats](/e2e-md-ferry-times). Also [Ferry timetable](/e2e-md-ferry-times)',
  );
  // The live preview shows it as a link visitors can follow.
  await expect(
    page
      .getByRole('region', { name: 'Preview as visitors will see it' })
      .getByRole('link', { name: 'Ferry timetable' }),
  ).toBeVisible();
});

test('a URL pasted over a selection makes a link; elsewhere it is text', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-md-paste-url';
  await seedPage({ slug, title: 'Paste page', body: 'Read the manual first.' });
  await signIn(page);
  const body = await openEditor(page, slug);
  await body.select(9, 15);
  await paste(page, 'https://example.org/manual');
  await body.expectText('Read the [manual](https://example.org/manual) first.');
  await body.typeAtEnd(' ');
  await paste(page, 'https://example.org/plain');
  await body.expectText(
    'Read the [manual](https://example.org/manual) first. https://example.org/plain',
  );
});

test('a 1 MB paste keeps every character; the most a page holds pastes and saves', async ({
  page,
  signIn,
  seedPage,
  store,
}) => {
  const slug = 'e2e-md-big-paste';
  await seedPage({ slug, title: 'Big paste', body: '' });
  await signIn(page);
  const body = await openEditor(page, slug);
  const line = 'A line of pasted prose, long enough to fill a page quickly. ';
  const megabyte = `${line.repeat(Math.ceil(1_048_576 / line.length))}END`;
  await body.select(0);
  await paste(page, megabyte);
  await expect.poll(async () => (await body.text()).length).toBe(megabyte.length);
  expect(await body.text()).toBe(megabyte);
  // More than a page holds (BODY_MAX): never sent, said so, and every character stays.
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('alert')).toContainText('Not saved: the body is');
  expect((await body.text()).length).toBe(megabyte.length);

  // The most a page holds, pasted over everything: it saves, whole.
  const most = `${megabyte.slice(0, BODY_MAX - 3)}END`;
  await body.select(0, megabyte.length);
  await paste(page, most);
  await expect.poll(async () => (await body.text()).length).toBe(most.length);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(status(page)).toContainText('Saved ');
  expect((await store.getPage(slug, { draft: true }))?.bodyMarkdown).toBe(most);
});

test('emoji and right-to-left text survive a save and a reload', async ({
  page,
  signIn,
  seedPage,
  store,
}) => {
  const slug = 'e2e-md-scripts';
  await seedPage({ slug, title: 'Scripts page', body: 'Mixed:' });
  await signIn(page);
  const body = await openEditor(page, slug);
  const typed = ' 👋🏽 family 👨‍👩‍👧 שלום עולם مرحبا بالعالم done';
  await body.typeAtEnd(typed);
  await body.expectText(`Mixed:${typed}`);
  await page.keyboard.press('Control+s');
  await expect(status(page)).toContainText('Saved ');
  expect((await store.getPage(slug, { draft: true }))?.bodyMarkdown).toBe(`Mixed:${typed}`);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await bodyEditor(page).expectText(`Mixed:${typed}`);
  await expect(page.getByRole('region', { name: 'Preview as visitors will see it' })).toContainText(
    'שלום עולם مرحبا بالعالم',
  );
});

/** A paste carrying these clipboard types, as a word processor or a web app puts them. */
async function pasteTypes(page: Page, types: Record<string, string>) {
  await page.locator('.body-codemirror .cm-content').evaluate((content, entries) => {
    const data = new DataTransfer();
    for (const [type, value] of Object.entries(entries)) data.setData(type, value);
    content.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, types);
}

// What Word puts on the clipboard: its styles, conditional comments and spans, beside the text.
const WORD_HTML = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>
p.MsoNormal{margin:0cm;font-family:"Calibri",sans-serif}</style></head><body lang=EN-GB>
<!--StartFragment--><p class=MsoNormal><b><span style='font-size:14.0pt'>Ferry times</span></b><o:p></o:p></p>
<p class=MsoNormal>Boats leave at <i>nine</i> — and 🚢 at noon.<!--[if !supportLineBreakNewLine]--><br>
<!--[endif]--></p><ul><li>Monday</li><li>שלום Tuesday</li></ul><!--EndFragment--></body></html>`;

test('rich text pasted from a word processor lands as its text, one undo step; HTML alone too', async ({
  page,
  signIn,
  seedPage,
  store,
}) => {
  const slug = 'e2e-md-rich-paste';
  await seedPage({ slug, title: 'Rich paste', body: 'Before.' });
  await signIn(page);
  const body = await openEditor(page, slug);

  // Word's own plain text (CRLF line ends) is what a Markdown editor takes, not its styles.
  await body.select(0, 'Before.'.length);
  await pasteTypes(page, {
    'text/html': WORD_HTML,
    'text/plain':
      'Ferry times\r\n\r\nBoats leave at nine — and 🚢 at noon.\r\n\r\nMonday\r\nשלום Tuesday',
  });
  const asText = 'Ferry times\n\nBoats leave at nine — and 🚢 at noon.\n\nMonday\nשלום Tuesday';
  await body.expectText(asText);
  await page.keyboard.press('Control+z');
  await body.expectText('Before.');

  // A web app that copies HTML alone: its text, paragraph by paragraph, rather than nothing.
  await body.select(0, 'Before.'.length);
  await pasteTypes(page, { 'text/html': WORD_HTML });
  await body.expectText(asText);

  // A long document in HTML alone (about 300 KB) pastes whole, without hanging the page.
  const paragraphs = Array.from(
    { length: 2_000 },
    (_, n) =>
      `<p class=MsoNormal><span style='font-family:Calibri'>Paragraph ${n} of the report.</span></p>`,
  );
  await body.select(0, asText.length);
  await pasteTypes(page, { 'text/html': `<html><body>${paragraphs.join('\n')}</body></html>` });
  const long = Array.from({ length: 2_000 }, (_, n) => `Paragraph ${n} of the report.`).join(
    '\n\n',
  );
  await body.expectText(long);
  await page.keyboard.press('Control+s');
  await expect(status(page)).toContainText('Saved ');
  expect((await store.getPage(slug, { draft: true }))?.bodyMarkdown).toBe(long);
});

/** Presses Tab until `target` has focus, checking that each stop on the way shows its focus. */
async function tabTo(page: Page, target: Locator, { backwards = false } = {}) {
  for (let presses = 0; presses < 60; presses += 1) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    // The ring may come a frame after the focus (CodeMirror marks its frame focused then).
    await expect
      .poll(() =>
        page.evaluate(() => {
          const focused = document.activeElement as HTMLElement | null;
          if (!focused || focused === document.body) return { name: 'body', shown: true };
          // The body editor's focus ring is on its frame (.cm-focused), not the content element.
          const ringed = focused.closest('.cm-editor') ?? focused;
          const style = getComputedStyle(ringed);
          const shown =
            (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') ||
            style.boxShadow !== 'none';
          return {
            name: `${focused.tagName} ${focused.getAttribute('name') ?? focused.textContent?.slice(0, 30)} (outline ${style.outlineStyle} ${style.outlineWidth}, shadow ${style.boxShadow})`,
            shown,
          };
        }),
      )
      .toMatchObject({ shown: true });
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error('Tab never reached the target');
}

test('keyboard only: skip link, fields, toolbar, link dialog, save and publish, focus always shown', async ({
  page,
  signIn,
  seedPage,
  store,
}) => {
  const slug = 'e2e-md-keyboard';
  await seedPage({ slug, title: 'Keyboard page', body: 'Start.', publish: false });
  await signIn(page);
  await openEditor(page, slug);
  await page.locator('body').focus();

  // The first stop skips the bars.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();

  const title = page.locator('input[name="title"]');
  await tabTo(page, title);
  await page.keyboard.press('End');
  await page.keyboard.type(', by keys');
  await expect(title).toHaveValue('Keyboard page, by keys');

  // Through the toolbar into the text: Tab reaches every button, then the body.
  const content = page.locator('.body-codemirror .cm-content');
  await tabTo(page, content);
  const body = bodyEditor(page);
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Bold words');
  for (let n = 0; n < 'words'.length; n += 1) await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('Control+b');
  await body.expectText('Start. Bold **words**');

  // Back to the toolbar's Link button, Enter, the dialog takes the address, Enter inserts it
  // and the text has the focus again.
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Site');
  const link = toolbar(page).getByRole('button', { name: 'Link', exact: true });
  await tabTo(page, link, { backwards: true });
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Insert a link' });
  await expect(dialog.getByLabel('Address')).toBeFocused();
  await page.keyboard.type('https://example.org/');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(content).toBeFocused();
  await body.expectText(/^Start\. Bold \*\*words\*\* Site\[.*\]\(https:\/\/example\.org\/\)$/);

  // Tab leaves the text (no tab character typed) for Save draft; Enter saves.
  const typed = await body.text();
  const save = page.getByRole('button', { name: 'Save draft' });
  await tabTo(page, save);
  await body.expectText(typed);
  await page.keyboard.press('Enter');
  await expect(status(page)).toContainText('Saved ');
  expect((await store.getPage(slug, { draft: true }))?.bodyMarkdown).toBe(typed);

  // Up to the banner's Publish, by Shift+Tab, and Enter publishes what was saved.
  const publish = page.getByRole('button', { name: 'Publish', exact: true });
  await tabTo(page, publish, { backwards: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Published.' })).toBeVisible();
  const published = await store.getPage(slug, { draft: false });
  expect(published?.bodyMarkdown).toBe(typed);
  expect(published?.title).toBe('Keyboard page, by keys');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the plain text box is the body, and it saves', async ({
    page,
    signIn,
    seedPage,
    store,
  }) => {
    const slug = 'e2e-md-nojs';
    await seedPage({ slug, title: 'No script page', body: 'Before.' });
    await signIn(page, `/preview/${slug}?edit`);
    await expect(page.locator('.cm-content')).toHaveCount(0);
    const body = bodyEditor(page, { javaScript: false });
    await expect(body.locator).toBeVisible();
    await body.fill('Saved without JavaScript: **bold** and 👋🏽 שלום.');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByRole('status').first()).toContainText('Draft saved');
    expect((await store.getPage(slug, { draft: true }))?.bodyMarkdown).toBe(
      'Saved without JavaScript: **bold** and 👋🏽 שלום.',
    );
    await body.expectText('Saved without JavaScript: **bold** and 👋🏽 שלום.');
  });
});

test('a visitor’s page loads none of the editor’s code; the editor screen does', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-md-budget';
  await seedPage({ slug, title: 'Budget page', body: 'Words for visitors.' });
  /** The scripts the page requests, and whether any of them is CodeMirror's. */
  const scriptsOf = async (path: string) => {
    const bodies: Promise<string>[] = [];
    const listener = (response: Response) => {
      if (response.request().resourceType() === 'script')
        bodies.push(response.text().catch(() => ''));
    };
    page.on('response', listener);
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    return { bodies, stop: () => page.off('response', listener) };
  };
  // CodeMirror's own class names: in its code whatever the bundler names the chunk.
  const isEditorCode = (source: string) => source.includes('cm-content');

  const visitor = await scriptsOf(`/${slug}`);
  await page.waitForLoadState('networkidle');
  visitor.stop();
  const visitorScripts = await Promise.all(visitor.bodies);
  expect(visitorScripts.length).toBeGreaterThan(0);
  expect(visitorScripts.filter(isEditorCode)).toEqual([]);

  await signIn(page);
  const editor = await scriptsOf(`/preview/${slug}?edit`);
  await bodyEditor(page).ready();
  editor.stop();
  expect((await Promise.all(editor.bodies)).some(isEditorCode)).toBe(true);
});

test('after a conflict, Take theirs is one undo step: Ctrl+Z brings back what was typed', async ({
  browser,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-md-undo-conflict';
  await seedPage({ slug, title: 'Undo conflict', body: 'Base text.' });
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  await signIn(first);
  await signIn(second);
  // The form's conflict, which a page bound to its shared document never has (both tabs would
  // edit one document): without co-editing.
  await withoutCoediting(first);
  await withoutCoediting(second);
  const firstBody = await openEditor(first, slug);
  const secondBody = await openEditor(second, slug);
  await firstBody.fill('Text from the first tab.');
  await first.keyboard.press('Control+s');
  await expect(status(first)).toContainText('Saved ');
  await secondBody.fill('Mine, typed in the second tab.');
  await second.keyboard.press('Control+s');
  await expect(second.getByRole('alert').first()).toContainText('since you opened it');
  await second.getByRole('button', { name: 'Take theirs' }).click();
  await secondBody.expectText('Text from the first tab.');
  await secondBody.select(0);
  await second.keyboard.press('Control+z');
  await secondBody.expectText('Mine, typed in the second tab.');
  await first.context().close();
  await second.context().close();
});

// Found on a loaded machine: an autosave's re-render of the route committed a render a few
// keystrokes behind the editor, and the editor took it for a change from outside — a letter
// went missing, or the caret jumped back.
test('typing on while an autosave goes out and the page re-renders loses no keystroke', async ({
  page,
  signIn,
  seedPage,
  store,
}) => {
  const slug = 'e2e-md-typing-autosave';
  await seedPage({ slug, title: 'Typing through', body: 'Start.' });
  await signIn(page);
  // The form's autosave of the body, which the shared document replaces: without co-editing.
  await withoutCoediting(page);
  const body = await openEditor(page, slug);
  let expected = 'Start.';
  for (let round = 0; round < 3; round += 1) {
    // Autosave goes out three seconds after the typing stops: type on as it goes.
    const autosave = page.waitForRequest(
      (request) =>
        request.method() === 'POST' &&
        (request.headers()['x-folio-action'] ?? '').includes('autosaveDraft'),
      { timeout: 20_000 },
    );
    await body.typeAtEnd(' abc');
    expected += ' abc';
    await autosave;
    // Long enough to go on past the answer and the route's re-render that follows it.
    const more = ` defghijklmnopqrstuvwxyz ${round} ABCDEFGHIJKLMNOPQRSTUVWXYZ`;
    await page.keyboard.type(more, { delay: 20 });
    expected += more;
  }
  await body.expectText(expected);
  await page.keyboard.press('Control+s');
  await expect(status(page)).toContainText('Saved ');
  expect((await store.getPage(slug, { draft: true }))?.bodyMarkdown).toBe(expected);
});

test('Ctrl+F finds and replaces in the body; spell-check is on', async ({
  page,
  signIn,
  seedPage,
}) => {
  const slug = 'e2e-md-find';
  await seedPage({ slug, title: 'Find page', body: 'one two three two one' });
  await signIn(page);
  const body = await openEditor(page, slug);
  await expect(body.locator).toHaveAttribute('spellcheck', 'true');
  await body.select(0);
  await page.keyboard.press('Control+f');
  const find = page.getByRole('textbox', { name: 'Find', exact: true });
  await expect(find).toBeFocused();
  await find.fill('two');
  await page.getByRole('textbox', { name: 'Replace', exact: true }).fill('2');
  await page.getByRole('button', { name: 'replace all' }).click();
  await body.expectText('one 2 three 2 one');
  // Undo takes the replacement back like any other edit.
  await body.locator.focus();
  await page.keyboard.press('Control+z');
  await body.expectText('one two three two one');
});
