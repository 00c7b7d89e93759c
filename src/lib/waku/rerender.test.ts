// Which action locations Waku can read, and so which calls ask it for a re-render: the ones that
// throw inside Waku's rerenderRoute() are refused here first. Waku's rerenderRoute stands in for
// the real one (which loads React's server build: bun test has no "react-server" condition);
// tests/integration/action-calls.test.ts calls the real one through the actions.
import { describe, expect, mock, test } from 'bun:test';
import { runInRequestContext } from '../http/request-context';
import { routeOf } from '../http/routes';

let rerendered = 0;
mock.module('waku/router/server', () => ({
  unstable_rerenderRoute: () => {
    rerendered += 1;
  },
}));
const { isReadableActionLocation, rerenderActionRoute } = await import('./rerender');

const REQUEST = 'http://folio.test/preview/about';
const JUNK = [
  null,
  '',
  'garbage',
  '%%%',
  'http://evil.example/preview',
  '//evil.example/preview',
  '/\\evil.example/preview',
  '/preview#x',
];

describe('isReadableActionLocation', () => {
  test('a path of this site is read', () => {
    expect(isReadableActionLocation('/preview/about?edit', REQUEST)).toBe(true);
    expect(isReadableActionLocation('/', REQUEST)).toBe(true);
  });

  test('a missing, junk or foreign location is not', () => {
    for (const location of JUNK) expect(isReadableActionLocation(location, REQUEST)).toBe(false);
  });
});

describe('rerenderActionRoute', () => {
  const call = (location: string | null) => {
    const url = new URL(REQUEST);
    const request = new Request(url, {
      method: 'POST',
      headers: location === null ? {} : { 'x-waku-action-location': location },
    });
    runInRequestContext(
      {
        request,
        url,
        route: routeOf(url.pathname),
        https: false,
        clientAddress: '127.0.0.1',
        origin: url.origin,
      },
      rerenderActionRoute,
    );
  };

  test('asks Waku only when the call names a route it can read', () => {
    rerendered = 0;
    for (const location of JUNK) call(location);
    expect(rerendered).toBe(0);
    call('/preview/about?edit');
    expect(rerendered).toBe(1);
  });
});
