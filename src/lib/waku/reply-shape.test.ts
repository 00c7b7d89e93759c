import { describe, expect, test } from 'bun:test';
import {
  nestingScanner,
  nestsDeeperThan,
  REPLY_MAX_DEPTH,
  replyNestsDeeperThan,
} from './reply-shape';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('how deep a call nests, judged without parsing', () => {
  test('counts arrays and objects, up to the limit and past it', () => {
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[[1]]}]}', 4)).toBe(true);
    // Closing brackets bring the depth back: siblings do not add up.
    expect(nestsDeeperThan('[[1],[2],[3],[4],[5]]', 2)).toBe(false);
  });

  test('brackets inside strings, escaped quotes included, do not count', () => {
    const markdown = JSON.stringify([{ body: `${'['.repeat(500)} a link [x](y) \\" "quoted"` }]);
    expect(nestsDeeperThan(markdown, 2)).toBe(false);
    expect(nestsDeeperThan('["\\\\", [[[1]]]]', 3)).toBe(true);
  });

  test('a million levels are judged in one pass, and refused', () => {
    const started = performance.now();
    expect(nestsDeeperThan(nested(1_000_000), REPLY_MAX_DEPTH)).toBe(true);
    expect(nestsDeeperThan(`"${'['.repeat(1_000_000)}"`, REPLY_MAX_DEPTH)).toBe(false);
    // Generous: the point is "not seconds", on however busy a machine.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test('a scanner fed in pieces sees what the whole text shows (a string split across chunks)', () => {
    const text = `["${'['.repeat(40)}\\"", ${nested(5)}]`;
    const bytes = new TextEncoder().encode(text);
    for (const cut of [1, 2, 3, 42, 43, 44, bytes.length - 1]) {
      const scanner = nestingScanner(5);
      const exceeded = scanner.feed(bytes.subarray(0, cut)) || scanner.feed(bytes.subarray(cut));
      expect(exceeded, `cut at ${cut}`).toBe(true);
      const within = nestingScanner(6);
      expect(within.feed(bytes.subarray(0, cut)) || within.feed(bytes.subarray(cut))).toBe(false);
    }
  });

  test('a form is judged in the parts React parses as JSON, not in the values it hands over', () => {
    const form = new FormData();
    form.set('0', '["$K1"]');
    form.set('1_body', nested(100));
    form.set('title', nested(100));
    expect(replyNestsDeeperThan(form)).toBe(false);
    form.set('1', nested(100));
    expect(replyNestsDeeperThan(form)).toBe(true);
    const noScript = new FormData();
    noScript.set('$ACTION_REF_1', '');
    noScript.set('$ACTION_1:0', `{"id":"x","bound":${nested(100)}}`);
    expect(replyNestsDeeperThan(noScript)).toBe(true);
    // React reads `$ACTION_<name>:0` for any name after `$ACTION_REF_`, digits or not.
    for (const name of ['x', '', '1a', 'Z_9']) {
      const named = new FormData();
      named.set(`$ACTION_REF_${name}`, '');
      named.set(`$ACTION_${name}:0`, '{"id":"x","bound":"$@1"}');
      named.set(`$ACTION_${name}:1`, nested(100));
      expect(replyNestsDeeperThan(named), `$ACTION_REF_${name}`).toBe(true);
    }
    expect(replyNestsDeeperThan(nested(REPLY_MAX_DEPTH))).toBe(false);
    expect(replyNestsDeeperThan(nested(REPLY_MAX_DEPTH + 1))).toBe(true);
  });
});
