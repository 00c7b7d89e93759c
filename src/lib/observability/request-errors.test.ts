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
  });

  test('anything else is a bug', () => {
    expect(classifyRequestError(new Error('no such table: pages'))).toBeNull();
    expect(classifyRequestError(wakuError(500))).toBeNull();
    expect(classifyRequestError('a string')).toBeNull();
  });
});
