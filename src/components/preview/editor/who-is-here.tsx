// Who else is editing this page now (decision record 0051): one entry a person, with the colour
// their caret and name label have in the text — and their name, so colour is never all there is.
import type { Present } from './live-presence';

export function WhoIsHere({ others, synced }: { others: readonly Present[]; synced: boolean }) {
  if (!synced && others.length === 0) return null;
  return (
    <div className="who-is-here">
      <span id="who-is-here-label">
        {others.length === 0 ? 'Only you are editing this page now.' : 'Also editing now:'}
      </span>
      {others.length > 0 ? (
        <ul aria-labelledby="who-is-here-label">
          {others.map((person) => (
            <li key={person.key}>
              <span
                className="presence-swatch"
                aria-hidden="true"
                style={{ backgroundColor: person.color }}
              />
              {person.name}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
