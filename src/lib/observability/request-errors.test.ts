import { describe, expect, test } from 'bun:test';
import { DATABASE_TIMEOUT_CODE } from '../data/db-errors';
import {
  BUSY_VERDICT,
  classifyRequestError,
  FULL_VERDICT,
  STALE_PAGE_MESSAGE,
  UNAVAILABLE_VERDICT,
} from './request-errors';

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

describe('database faults', () => {
  test('a full disk on either engine is a 503 of its own, not a bug', () => {
    // bun:sqlite's and Bun.SQL's SQLite errors carry SQLite's code name.
    expect(classifyRequestError(Object.assign(new Error('full'), { code: 'SQLITE_FULL' }))).toBe(
      FULL_VERDICT,
    );
    // PostgreSQL's disk_full, by SQLSTATE (a real one is not cheap to produce in a test).
    expect(
      classifyRequestError(
        Object.assign(new Error('could not extend file'), {
          code: 'ERR_POSTGRES_SERVER_ERROR',
          errno: '53100',
        }),
      ),
    ).toBe(FULL_VERDICT);
    expect(FULL_VERDICT.status).toBe(503);
  });

  test('a database that took a statement and never answered is out of reach; busy stays busy', () => {
    expect(
      classifyRequestError(Object.assign(new Error('no answer'), { code: DATABASE_TIMEOUT_CODE })),
    ).toBe(UNAVAILABLE_VERDICT);
    expect(classifyRequestError(Object.assign(new Error('lock'), { errno: '55P03' }))).toBe(
      BUSY_VERDICT,
    );
  });
});
