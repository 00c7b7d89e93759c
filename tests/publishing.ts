// Publishing as an editor does, through a server's own forms (as a browser without JavaScript
// would): the write happens in the server, with everything its commit sets off (a purge).
import { expect } from 'bun:test';
import { formWithButton, submitForm } from './forms';

/** Saves `body` as the draft of `slug` and publishes it; returns when the publish answered. */
export async function publishThroughForms(
  origin: string,
  cookie: string,
  slug: string,
  body: string,
  /** Called just before the publish itself is sent (to time publish → visible). */
  beforePublish: () => void = () => undefined,
): Promise<void> {
  const editUrl = `${origin}/preview/${slug}?edit`;
  const editor = await (await fetch(editUrl, { headers: { cookie } })).text();
  const saved = await submitForm(editUrl, await formWithButton(editor, 'Save draft'), {
    cookie,
    set: { body },
  });
  await saved.arrayBuffer();
  expect(saved.status).toBe(303);
  const previewUrl = `${origin}/preview/${slug}`;
  const preview = await (await fetch(previewUrl, { headers: { cookie } })).text();
  const form = await formWithButton(preview, 'Publish this draft');
  beforePublish();
  const published = await submitForm(previewUrl, form, { cookie });
  await published.arrayBuffer();
  expect(published.headers.get('location')).toBe(`/preview/${slug}?notice=published`);
}
