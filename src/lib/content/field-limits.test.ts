import { describe, expect, test } from 'bun:test';
import { BODY_MAX, characterCount, REQUEST_BODY_MAX_BYTES, requestBodyLimit } from './field-limits';
import { pageFieldsSchema } from './page-fields';

describe('field limits', () => {
  test('the browser counts characters as the server does: an emoji is one', () => {
    expect(characterCount('😀😀')).toBe(2);
    expect(characterCount('a\u0301')).toBe(2);
    const fields = { title: 't', summary: '' };
    // The editor lets exactly what the schema accepts through, and nothing more.
    const most = '😀'.repeat(BODY_MAX);
    expect(characterCount(most)).toBe(BODY_MAX);
    expect(pageFieldsSchema.safeParse({ ...fields, body: most }).success).toBe(true);
    expect(pageFieldsSchema.safeParse({ ...fields, body: `${most}x` }).success).toBe(false);
  });
});

describe('request body limit', () => {
  const mb = 1024 * 1024;
  const limit = (address: string, action: string | null = null) =>
    requestBodyLimit(new URL(address, 'http://folio.test'), action, 10);
  test('uploads take an image of the configured size with the form around it', () => {
    expect(limit('/preview?media')).toBe(11 * mb);
    // The upload action, called from the library or the editor at the page's address.
    expect(limit('/preview/about?edit', '/RSC/F/a662092daa3a/uploadMedia.txt')).toBe(11 * mb);
    expect(limit('/RSC/F/a662092daa3a/uploadMedia.txt')).toBe(11 * mb);
  });
  test('everything else takes REQUEST_BODY_MAX_BYTES', () => {
    expect(limit('/preview/about?edit')).toBe(REQUEST_BODY_MAX_BYTES);
    expect(limit('/preview/about?edit', '/RSC/F/a662092daa3a/saveDraft.txt')).toBe(
      REQUEST_BODY_MAX_BYTES,
    );
    // A named action decides, not the page it is posted to.
    expect(limit('/preview?media', '/RSC/F/a662092daa3a/changeMedia.txt')).toBe(
      REQUEST_BODY_MAX_BYTES,
    );
    expect(limit('/preview/about?edit', '/RSC/F/x/uploadMedia.txt.evil')).toBe(
      REQUEST_BODY_MAX_BYTES,
    );
  });
});
