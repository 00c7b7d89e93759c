import { describe, expect, test } from 'bun:test';
import {
  DEFAULT_TRACES_SAMPLE_RATE,
  serverSentryOptions,
  tracesSampleRate,
} from './sentry-options';

describe('the traces sample rate', () => {
  test('unset, a deployed server traces one request and page view in ten', () => {
    // `bun test` runs outside Vite's dev server, as a deployed server does.
    expect(DEFAULT_TRACES_SAMPLE_RATE).toBe(0.1);
    expect(tracesSampleRate(undefined)).toBe(0.1);
    expect(serverSentryOptions({ SENTRY_DSN: 'http://key@127.0.0.1:9/1' })?.tracesSampleRate).toBe(
      0.1,
    );
  });

  test('a rate that is set is the rate, 0 and 1 included', () => {
    expect(tracesSampleRate('1')).toBe(1);
    expect(tracesSampleRate('0')).toBe(0);
    expect(tracesSampleRate(0.25)).toBe(0.25);
    expect(
      serverSentryOptions({
        SENTRY_DSN: 'http://key@127.0.0.1:9/1',
        SENTRY_TRACES_SAMPLE_RATE: '0',
      })?.tracesSampleRate,
    ).toBe(0);
  });

  test('an unreadable rate is the default, never NaN or more than every request', () => {
    for (const value of ['', 'often', '2', '-1', 'NaN'])
      expect(tracesSampleRate(value), value).toBe(DEFAULT_TRACES_SAMPLE_RATE);
  });
});
