import { describe, expect, test } from 'bun:test';
import { REQUEST_BODY_MAX_BYTES } from '../content/field-limits';
import {
  bodyLimitOfAddress,
  bodyWithinLimits,
  requestBodyLimit,
  SMALL_FORM_MAX_BYTES,
} from './body-limit';

describe('request body limit', () => {
  const mb = 1024 * 1024;
  const limit = (address: string, action: string | null = null) =>
    bodyLimitOfAddress(new URL(address, 'http://folio.test'), action, 10);
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
  test('a sign-in, a sign-out and the error check are small forms', () => {
    expect(limit('/preview', '/RSC/F/a662092daa3a/signIn.txt')).toBe(SMALL_FORM_MAX_BYTES);
    expect(limit('/RSC/F/a662092daa3a/signOut.txt')).toBe(SMALL_FORM_MAX_BYTES);
    expect(SMALL_FORM_MAX_BYTES).toBeLessThan(REQUEST_BODY_MAX_BYTES / 100);
  });
  test('once read, a body must suit every action its form names, and megabytes need a file', () => {
    const within = (bytes: number, actionNames: string[], hasFile = false) =>
      bodyWithinLimits(bytes, { actionNames, hasFile, mediaMaxMb: 10 });
    expect(within(5 * mb, ['uploadMedia'], true)).toBe(true);
    expect(within(5 * mb, ['uploadMedia'], false)).toBe(false);
    expect(within(12 * mb, ['uploadMedia'], true)).toBe(false);
    expect(within(64 * 1024, ['signIn'])).toBe(false);
    expect(within(2 * 1024, ['signIn'])).toBe(true);
    // The media library's form names the upload; one that names a sign-in too is held to both.
    expect(within(64 * 1024, ['uploadMedia', 'signIn'], true)).toBe(false);
    expect(within(3 * mb, ['saveDraft'])).toBe(true);
  });
  test('an upload’s room is for a signed-in editor; anyone else gets a form’s, unasked otherwise', async () => {
    const url = new URL('/preview?media', 'http://folio.test');
    let asked = 0;
    const answer = (yes: boolean) => async () => {
      asked += 1;
      return yes;
    };
    expect(await requestBodyLimit(url, null, 10, answer(true))).toBe(11 * mb);
    expect(await requestBodyLimit(url, null, 10, answer(false))).toBe(REQUEST_BODY_MAX_BYTES);
    expect(asked).toBe(2);
    const form = new URL('/preview/about?edit', 'http://folio.test');
    expect(await requestBodyLimit(form, null, 10, answer(false))).toBe(REQUEST_BODY_MAX_BYTES);
    // Nothing to grant, nothing asked: a visitor's post costs no session lookup.
    expect(asked).toBe(2);
  });
});
