// The editor's JavaScript calls as the page makes them (x-folio-action, React's encoded
// arguments) and as a script can forge them, against the server as the README starts it: the
// findings of the hostile pass over the action calls. Every test here failed before its fix.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentStore } from '../../src/lib/content/content';
import { BODY_MAX } from '../../src/lib/content/field-limits';
import { addEditor } from '../../src/lib/editors/accounts';
import { signInWithForm } from '../forms';
import { type RunningFolio, startFolio, withStore as withStoreOf } from '../harness';

const SLUG = 'action-calls';
let folio: RunningFolio;
let cookie = '';
const modules: Record<string, string> = {};

const withStore = <T>(work: (store: ContentStore) => Promise<T>): Promise<T> =>
  withStoreOf(folio, work);

beforeAll(async () => {
  folio = await startFolio();
  await addEditor(await folio.database(), 'calls@example.com', 'the calls passphrase');
  cookie = (await signInWithForm(folio.url, 'calls@example.com', 'the calls passphrase')).cookie;
  await withStore((store) =>
    store.putPage({ slug: SLUG, title: 'Calls', summary: '', body: 'FIRST' }),
  );
  // The actions' ids, as the build's browser code holds them (the page's scripts call them).
  const assets = new Bun.Glob('dist/public/assets/*.js');
  for await (const path of assets.scan('.')) {
    const code = await Bun.file(path).text();
    for (const [, id, action] of code.matchAll(
      /([0-9a-f]{12})#(autosaveDraft|createShareLink|previewDraft|signIn|uploadMedia)\b/g,
    ))
      if (id && action) modules[action] = id;
  }
  for (const action of [
    'autosaveDraft',
    'createShareLink',
    'previewDraft',
    'signIn',
    'uploadMedia',
  ])
    if (!modules[action]) throw new Error(`the build names no ${action} (bun run build first)`);
}, 60_000);
afterAll(async () => {
  await folio?.stop();
});

/** A JavaScript action call, as Waku's router sends it (`location`: its action-location header). */
function call(
  action: string,
  body: BodyInit,
  { signedIn = true, location }: { signedIn?: boolean; location?: string | null } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    origin: folio.url,
    'x-folio-action': `/RSC/F/${modules[action]}/${action}.txt`,
  };
  if (typeof body === 'string') headers['content-type'] = 'text/plain;charset=UTF-8';
  if (signedIn) headers.cookie = cookie;
  if (location !== null) headers['x-waku-action-location'] = location ?? `/preview/${SLUG}?edit`;
  return fetch(`${folio.url}/preview/${SLUG}`, {
    method: 'POST',
    body,
    redirect: 'manual',
    headers,
  });
}

const page = () => withStore((store) => store.getPage(SLUG, { draft: true }));

async function editorValues() {
  const current = await page();
  if (!current) throw new Error('no page');
  return {
    slug: SLUG,
    originalSlug: SLUG,
    pageId: String(current.id),
    version: String(current.version),
    title: current.title,
    summary: current.summary,
    body: current.bodyMarkdown,
  };
}

describe('autosaveDraft reads its arguments with a schema (finding 1)', () => {
  test('a forged argument is a 400 before or after the sign-in check, never a 500, nothing saved', async () => {
    const values = await editorValues();
    const before = await page();
    const forged: [string, string][] = [
      [
        'a toString that is not a function',
        JSON.stringify([{ ...values, title: { toString: 'x' } }]),
      ],
      ['a temporary reference', JSON.stringify([{ ...values, title: '$T' }])],
      ['a temporary reference as the argument', '["$T"]'],
      ['a list where text goes', JSON.stringify([{ ...values, body: ['a', 'b'] }])],
      ['an object where text goes', JSON.stringify([{ ...values, body: { a: 1 } }])],
      ['a hexadecimal page id', JSON.stringify([{ ...values, pageId: '0x5' }])],
      ['a page id as a number', JSON.stringify([{ ...values, pageId: Number(values.pageId) }])],
      ['a version that is a date', JSON.stringify([{ ...values, version: '$D2020-01-01' }])],
      ['a version that is a bigint', JSON.stringify([{ ...values, version: '$n99' }])],
      ['a version left out', JSON.stringify([{ ...values, version: '$undefined' }])],
    ];
    for (const signedIn of [true, false]) {
      for (const [what, body] of forged) {
        const response = await call('autosaveDraft', body, { signedIn });
        expect(response.status, `${what} (signed in: ${signedIn})`).toBe(400);
        expect(await response.text()).not.toContain('    at ');
      }
    }
    const after = await page();
    expect(after?.version).toBe(before?.version);
    expect(after?.bodyMarkdown).toBe('FIRST');
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('the editor’s own call still saves', async () => {
    const values = await editorValues();
    const response = await call('autosaveDraft', JSON.stringify([{ ...values, body: 'SAVED' }]));
    expect(response.status).toBe(200);
    expect((await page())?.bodyMarkdown).toBe('SAVED');
  });
});

describe('a call without a readable action location is answered without a re-render (finding 2)', () => {
  test('autosaveDraft saves and answers 200 with the header missing or junk', async () => {
    for (const location of [null, 'garbage', '%%%', 'http://evil.example/preview']) {
      const values = await editorValues();
      const body = `SAVED WITH ${location}`;
      const response = await call('autosaveDraft', JSON.stringify([{ ...values, body }]), {
        location,
      });
      expect(response.status, String(location)).toBe(200);
      expect(await response.text()).toContain(`"version":${Number(values.version) + 1}`);
      expect((await page())?.bodyMarkdown).toBe(body);
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('createShareLink makes its link and answers 200 with the header missing or junk', async () => {
    const pageId = String((await page())?.id);
    for (const location of [null, 'garbage', '%%%', 'http://evil.example/preview']) {
      // useActionState's call: the previous state, then the form (React's "$K" form reference).
      const body = new FormData();
      body.append('0', '["$undefined","$K1"]');
      body.append('_1_ttl', '24h');
      body.append('_1_pageId', pageId);
      body.append('_1_slug', SLUG);
      const response = await call('createShareLink', body, { location });
      expect(response.status, String(location)).toBe(200);
      expect(await response.text()).toContain(`?share=`);
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

describe('a call is bounded before anything decodes it (issue 24, second finding)', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  test('a body nested a million deep is a 400 at once, signed in or not, for any action', async () => {
    const body = nested(1_000_000);
    for (const signedIn of [false, true])
      for (const action of ['autosaveDraft', 'createShareLink']) {
        const response = await call(action, body, { signedIn });
        expect(response.status, `${action} (signed in: ${signedIn})`).toBe(400);
        expect(await response.text()).not.toContain('    at ');
      }
    // The same depth inside a part React parses, in a form: the root, or a chunk it names.
    for (const name of ['0', '1']) {
      const form = new FormData();
      form.append('0', name === '0' ? nested(100) : '["$undefined","$K2","$1"]');
      if (name === '1') form.append('1', nested(100));
      form.append('_2_ttl', '24h');
      const response = await call('createShareLink', form);
      expect(response.status, `form part ${name}`).toBe(400);
    }
    // Without JavaScript: the bound arguments of a form's action.
    const noScript = new FormData();
    noScript.append('$ACTION_REF_1', '');
    noScript.append(
      '$ACTION_1:0',
      `{"id":"${modules.createShareLink}#createShareLink","bound":${nested(100)}}`,
    );
    const form = await fetch(`${folio.url}/preview/${SLUG}`, {
      method: 'POST',
      body: noScript,
      headers: { origin: folio.url, cookie, accept: 'text/html' },
      redirect: 'manual',
    });
    expect(form.status).toBe(400);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('a page’s Markdown full of brackets is text, not nesting: it saves', async () => {
    const values = await editorValues();
    const body = `${'['.repeat(200)} a draft about [links](https://example.com) ${']'.repeat(200)}`;
    const response = await call('autosaveDraft', JSON.stringify([{ ...values, body }]));
    expect(response.status).toBe(200);
    expect((await page())?.bodyMarkdown).toBe(body);
  });

  test('a sign-in takes kilobytes, declared or streamed without a length: a larger one is a 413', async () => {
    const big = `["${'x'.repeat(64 * 1024)}"]`;
    const declared = await call('signIn', big, { signedIn: false });
    expect(declared.status).toBe(413);
    const streamed = await call(
      'signIn',
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      { signedIn: false },
    );
    expect(streamed.status).toBe(413);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('only an upload with a file in it gets megabytes', async () => {
    const mb = 1024 * 1024;
    // Five megabytes of text to the upload action: over the form limit, and no file.
    const text = new FormData();
    text.append('0', '["$undefined","$K1"]');
    text.append('_1_alt', 'x'.repeat(5 * mb));
    const refused = await call('uploadMedia', text);
    expect(refused.status).toBe(413);
    const raw = await call('uploadMedia', `["${'x'.repeat(5 * mb)}"]`);
    expect(raw.status).toBe(413);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  /** A form posted without JavaScript, as a script can forge it, anonymous unless `cookie`. */
  const noScript = (form: FormData, address = `/preview/${SLUG}`, withCookie = false) =>
    fetch(`${folio.url}${address}`, {
      method: 'POST',
      body: form,
      headers: { origin: folio.url, accept: 'text/html', ...(withCookie ? { cookie } : {}) },
      redirect: 'manual',
    });

  test('hostile pass: `$ACTION_REF_<any name>` is judged too, not only digits', async () => {
    for (const name of ['x', '', '1a']) {
      const inline = new FormData();
      inline.append(`$ACTION_REF_${name}`, '');
      inline.append(
        `$ACTION_${name}:0`,
        `{"id":"${modules.createShareLink}#createShareLink","bound":${nested(100_000)}}`,
      );
      const split = new FormData();
      split.append(`$ACTION_REF_${name}`, '');
      split.append(
        `$ACTION_${name}:0`,
        `{"id":"${modules.createShareLink}#createShareLink","bound":"$@1"}`,
      );
      split.append(`$ACTION_${name}:1`, nested(100_000));
      for (const form of [inline, split]) {
        const response = await noScript(form);
        expect(response.status, `$ACTION_REF_${name}`).toBe(400);
      }
    }
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('hostile pass: a form of thousands of parts is refused before it is parsed', async () => {
    // One real action's id 25 000 times (each was looked up in the build, one after another).
    const ids = new FormData();
    for (let i = 0; i < 25_000; i++)
      ids.append(`$ACTION_ID_${modules.createShareLink}#createShareLink`, '');
    const repeated = await noScript(ids);
    expect(repeated.status).toBe(400);
    const fields = new FormData();
    for (let i = 0; i < 25_000; i++) fields.append(`f${i}`, 'x');
    expect((await noScript(fields)).status).toBe(400);
    // Folio's own forms are far from the limit: an editor's save still goes through.
    const values = await editorValues();
    const response = await call('autosaveDraft', JSON.stringify([{ ...values, body: 'PARTS' }]));
    expect(response.status).toBe(200);
  });

  test('hostile pass: an upload’s megabytes are for a signed-in editor only, unread for anyone else', async () => {
    const mb = 1024 * 1024;
    const form = () => {
      const upload = new FormData();
      upload.append('0', '["$undefined","$K1"]');
      upload.append('_1_file', new File([new Uint8Array(4)], 'tiny.png', { type: 'image/png' }));
      upload.append('_1_alt', 'x'.repeat(5 * mb));
      return upload;
    };
    const anonymous = await call('uploadMedia', form(), { signedIn: false });
    expect(anonymous.status).toBe(413);
    // Signed in, the same body is read and judged as an upload (its tiny file is refused).
    const editor = await call('uploadMedia', form());
    expect(editor.status).not.toBe(413);
    expect(editor.status).toBeLessThan(500);
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

describe('live previews are made a few at a time (issue 25, hostile pass)', () => {
  /** A page of code each call has not seen before: nothing of it is in a cache. */
  const bodyOf = (call: number) =>
    Array.from(
      { length: 200 },
      (_, block) =>
        `Paragraph ${call}.${block}\n\n\`\`\`ts\nconst value${call}x${block} = ${block};\n\`\`\``,
    ).join('\n\n');

  test('a burst from one editor: the rest refused at once, never a 500; then previews again', async () => {
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, n) =>
        call('previewDraft', JSON.stringify([{ body: bodyOf(n), have: [] }])).then(
          async (response) => ({ status: response.status, text: await response.text() }),
        ),
      ),
    );
    // A JavaScript call's answer is data with a 200, as the router expects (action.ts).
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const refused = answers.filter((answer) =>
      answer.text.includes('Too many previews are being made at once'),
    );
    // Sixteen at once, each of 200 blocks no cache has: more than two are asked together.
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of answers) {
      if (!refused.includes(answer)) expect(answer.text).toContain('"ids"');
      expect(answer.text).not.toContain('    at ');
    }
    // The slots are given back: the next preview is made.
    const after = await call('previewDraft', JSON.stringify([{ body: 'Calm again.', have: [] }]));
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('Calm again.');
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});

describe('the editor’s calls refuse what is not theirs to do (issue 26’s hostile pass)', () => {
  test('an autosave whose page id names another page says so, and neither page changes', async () => {
    const other = await withStore(async (store) => {
      await store.putPage({ slug: 'calls-other', title: 'Other', summary: '', body: 'OTHER' });
      return store.getPage('calls-other', { draft: true });
    });
    if (!other) throw new Error('no other page');
    const values = await editorValues();
    const before = await page();
    // The other page's id, with its current version and then a stale one.
    for (const version of [other.version, other.version + 5]) {
      const response = await call(
        'autosaveDraft',
        JSON.stringify([
          { ...values, pageId: String(other.id), version: String(version), body: 'FORGED' },
        ]),
      );
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain('this form names another page than the one opened at /action-calls');
      expect(text).not.toContain('renamed');
      expect(text).not.toContain('"ok":true');
    }
    const after = await withStore((store) => store.getPage('calls-other', { draft: true }));
    expect([after?.bodyMarkdown, after?.version, after?.slug]).toEqual([
      'OTHER',
      other.version,
      'calls-other',
    ]);
    expect((await page())?.version).toBe(before?.version);
    expect(folio.unexpectedErrors()).toEqual([]);
  });

  test('a live preview of a body longer than a page holds is refused in the save’s words, not rendered', async () => {
    const body = `${'TOO-LONG-MARKER '.repeat(12_500)}x`;
    expect(body.length).toBe(BODY_MAX + 1);
    const response = await call('previewDraft', JSON.stringify([{ body, have: [] }]));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain(
      'Not previewed: the body is 200,001 characters, and a page holds at most 200,000.',
    );
    expect(text).toContain('"tooLong":true');
    expect(text).not.toContain('TOO-LONG-MARKER');
    expect(text).not.toContain('"ids"');
    // At the limit, it is previewed.
    const fits = await call('previewDraft', JSON.stringify([{ body: body.slice(1), have: [] }]));
    expect(await fits.text()).toContain('TOO-LONG-MARKER');
  });
});

describe('the live preview renders listing directives as the page will (issue 27’s leftovers)', () => {
  test('published posts of the topic only; a bad directive in words; a listing the pane has is not sent again', async () => {
    await withStore(async (store) => {
      for (const [slug, publish] of [
        ['calls-listed', true],
        ['calls-unlisted-draft', false],
      ] as const)
        await store.saveDraft(
          {
            slug,
            title: `Title of ${slug}`,
            summary: '',
            body: 'Text.',
            expectedVersion: null,
            editor: null,
            post: { kind: 'post', topics: ['Calls Listing'] },
          },
          { publish },
        );
    });
    const preview = async (body: string, have: string[] = []) => {
      const response = await call('previewDraft', JSON.stringify([{ body, have }]));
      expect(response.status).toBe(200);
      return response.text();
    };
    const listed = await preview('Intro.\n\n{{ posts topic=calls-listing limit=3 }}\n\nAfter.');
    expect(listed).toContain('directive-listing');
    expect(listed).toContain('Title of calls-listed');
    expect(listed).toContain('/preview/calls-listed');
    expect(listed).not.toContain('calls-unlisted-draft');
    expect(listed).not.toContain('{{ posts');
    const bad = await preview('{{ posts topic=nowhere-topic }}\n\n{{ posts limit=99 }}');
    expect(bad).toContain('No topic with published posts is at /nowhere-topic.');
    expect(bad).toContain('limit is a number from 1 to 20');
    // Six directives: the sixth is the page's limit, as the saved preview says.
    const six = await preview(Array.from({ length: 6 }, () => '{{ posts }}').join('\n\n'));
    expect(six).toContain('A page holds at most 5 listings.');
    // The listing's id is of what it renders to: the pane holding it gets no HTML for it.
    const ids = (JSON.stringify(listed).match(/l[0-9a-z]+/g) ?? []).filter((id) =>
      listed.includes(`"${id}"`),
    );
    const again = await preview('Intro.\n\n{{ posts topic=calls-listing limit=3 }}\n\nAfter.', ids);
    expect(again).not.toContain('Title of calls-listed');
    expect(folio.unexpectedErrors()).toEqual([]);
  });
});
