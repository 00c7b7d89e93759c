import { describe, expect, test } from 'bun:test';
import { createSignInThrottle } from './sign-in-throttle';

describe('sign-in throttle', () => {
  test('locks an account after its failures, from any address, until the window ends', () => {
    const throttle = createSignInThrottle({ windowMs: 60_000, perAccount: 3, perAddress: 100 });
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfterSeconds('ed@example.com', `10.0.0.${i}`, t0)).toBe(0);
      throttle.recordFailure('ed@example.com', `10.0.0.${i}`, t0);
    }
    // A fresh address does not help: the account itself is locked.
    expect(throttle.retryAfterSeconds('ED@example.com', '10.9.9.9', t0 + 1000)).toBe(59);
    expect(throttle.retryAfterSeconds('other@example.com', '10.9.9.9', t0 + 1000)).toBe(0);
    expect(throttle.retryAfterSeconds('ed@example.com', '10.9.9.9', t0 + 60_000)).toBe(0);
  });

  test('locks an address that sprays many accounts', () => {
    const throttle = createSignInThrottle({ windowMs: 60_000, perAccount: 100, perAddress: 5 });
    for (let i = 0; i < 5; i++) throttle.recordFailure(`user${i}@example.com`, 'attacker', 0);
    expect(throttle.retryAfterSeconds('new@example.com', 'attacker', 10)).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds('new@example.com', 'someone-else', 10)).toBe(0);
  });

  test('a success clears the account counter', () => {
    const throttle = createSignInThrottle({ windowMs: 60_000, perAccount: 2, perAddress: 100 });
    throttle.recordFailure('ed@example.com', 'a', 0);
    throttle.recordSuccess('ed@example.com');
    throttle.recordFailure('ed@example.com', 'a', 0);
    expect(throttle.retryAfterSeconds('ed@example.com', 'a', 0)).toBe(0);
  });
});
