// Owns how drafts and revisions keep a post's topics: a JSON list of topic ids, in order.

export function parseTopicIds(value: string | null | undefined): number[] {
  if (!value) return [];
  try {
    const ids: unknown = JSON.parse(value);
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isSafeInteger(id)) : [];
  } catch {
    return [];
  }
}

export function formatTopicIds(ids: readonly number[]): string {
  return JSON.stringify(ids);
}
