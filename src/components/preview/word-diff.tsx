// A word-level diff of two texts (jsdiff's diffWordsWithSpace: docs/decisions/0016), as
// <del>/<ins>. Shared by the history (server) and the conflict view in the editor (browser).
import { diffWordsWithSpace } from 'diff';

export function WordDiff({ before, after }: { before: string; after: string }) {
  if (before === after) return <span className="diff-same">{after}</span>;
  return (
    <>
      {diffWordsWithSpace(before, after).map((part, index) =>
        part.added ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence
          <ins key={index}>{part.value}</ins>
        ) : part.removed ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence
          <del key={index}>{part.value}</del>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence
          <span key={index}>{part.value}</span>
        ),
      )}
    </>
  );
}

/** Title, summary and body side by side as one diff, each field labelled. */
export function FieldsDiff({
  before,
  after,
  beforeLabel,
  afterLabel,
}: {
  before: { title: string; summary: string; body: string };
  after: { title: string; summary: string; body: string };
  beforeLabel: string;
  afterLabel: string;
}) {
  const changed = (['title', 'summary', 'body'] as const).filter(
    (field) => before[field] !== after[field],
  );
  return (
    <div className="diff">
      <p className="diff-legend">
        <del>{beforeLabel}</del> <ins>{afterLabel}</ins>
        {changed.length === 0 ? ' — the same text' : ''}
      </p>
      {(['title', 'summary', 'body'] as const).map((field) => (
        <section key={field} className="diff-field" aria-label={`${field} compared`}>
          <h3>
            {field[0]?.toUpperCase()}
            {field.slice(1)}
            {changed.includes(field) ? '' : ' (unchanged)'}
          </h3>
          <pre className="diff-text">
            <WordDiff before={before[field]} after={after[field]} />
          </pre>
        </section>
      ))}
    </div>
  );
}
