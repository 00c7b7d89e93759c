import { describe, expect, test } from 'bun:test';
import { escapeXml } from './xml';

describe('escapeXml', () => {
  test('escapes markup and leaves out what XML 1.0 cannot carry, keeping paired surrogates', () => {
    expect(escapeXml(`a<b>&'"`)).toBe('a&#60;b&#62;&#38;&#39;&#34;');
    expect(escapeXml('x\u0001\u0008\u000b\ufffe\uffffy')).toBe('xy');
    expect(escapeXml('tab\tnl\ncr\r')).toBe('tab\tnl\ncr\r');
    expect(escapeXml('lone \ud800 and \udc00, pair 😀')).toBe('lone  and , pair 😀');
  });
});
