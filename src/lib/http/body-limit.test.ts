import { describe, expect, test } from 'bun:test';
import { REQUEST_BODY_MAX_BYTES } from '../content/field-limits';
import { requestBodyLimit } from './body-limit';

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
