import { describe, expect, test } from 'bun:test';
import { BODY_MAX, characterCount } from './field-limits';
import { pageFieldsSchema } from './page-fields';

describe('field limits', () => {
  test('the browser counts characters as the server does: an emoji is one', () => {
    expect(characterCount('😀😀')).toBe(2);
    expect(characterCount('a\u0301')).toBe(2);
    const fields = { title: 't', summary: '' };
    // The editor lets exactly what the schema accepts through, and nothing more.
    const most = '😀'.repeat(BODY_MAX);
    expect(characterCount(most)).toBe(BODY_MAX);
    expect(pageFieldsSchema.safeParse({ ...fields, body: most }).success).toBe(true);
    expect(pageFieldsSchema.safeParse({ ...fields, body: `${most}x` }).success).toBe(false);
  });
});
