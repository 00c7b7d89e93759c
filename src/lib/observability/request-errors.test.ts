import { describe, expect, test } from 'bun:test';
import { classifyRequestError, STALE_PAGE_MESSAGE } from './request-errors';

function wakuError(status: number) {
  return Object.assign(new Error('x'), {
    digest: `__WAKU_CUSTOM_ERROR__;${JSON.stringify({ status })}`,
  });
}

describe('classifyRequestError', () => {
  test('request-caused errors get a 4xx', () => {
    expect(classifyRequestError(wakuError(405))?.status).toBe(405);
    expect(classifyRequestError(wakuError(403))?.status).toBe(403);
    expect(classifyRequestError(new Error("server reference not found 'abc'"))).toEqual({
      status: 409,
      message: STALE_PAGE_MESSAGE,
      stale: true,
    });
    expect(classifyRequestError(new Error('Invalid encoded rscPath'))?.status).toBe(404);
    expect(classifyRequestError(new SyntaxError('JSON Parse error'))?.status).toBe(400);
    expect(
      classifyRequestError(
        new TypeError("Can't decode form data from body because of incorrect MIME type/boundary"),
      )?.status,
    ).toBe(400);
    const tooLarge = Object.assign(new Error('Payload Too Large'), {
      status: 413,
      getResponse: () => new Response(null, { status: 413 }),
    });
    expect(classifyRequestError(tooLarge)).toEqual({
      status: 413,
      message: 'The request is too large.',
    });
  });

  test('anything else is a bug', () => {
    expect(classifyRequestError(new Error('no such table: pages'))).toBeNull();
    expect(classifyRequestError(wakuError(500))).toBeNull();
    expect(classifyRequestError('a string')).toBeNull();
  });
});
