import { describe, expect, test } from 'bun:test';
import { jsonLdText } from './json-ld';

describe('jsonLdText', () => {
  test('writes nothing that could end or comment out its <script>', () => {
    const text = jsonLdText({ headline: '</script><!-- <script> & \u2028\u2029' });
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ headline: '</script><!-- <script> & \u2028\u2029' });
  });
});
