'use client';
// Owns the menus form (/preview?navigation, issue 27): the header's and the footer's entries,
// each a page (its label optional) or a link (label and address), reordered with the mouse
// (drag and drop) or the keyboard (Move up / Move down), removed, added. Without JavaScript
// every button submits the form and the server answers with the change made and nothing saved
// (actions/navigation.ts); with it the same change (menus-changes.ts) is made in place, focus
// stays on the moved entry's button, and a live region says what moved where. Save sends the
// menus in the order of their fields.
import {
  type DragEvent,
  type MouseEvent,
  useActionState,
  useEffect,
  useRef,
  useState,
} from 'react';
import { MENU_LABEL_MAX, MENU_URL_MAX } from '../../lib/content/field-limits';
import type { MenuName } from '../../lib/content/navigation-menus';
import { saveMenus } from '../../lib/editor/actions/navigation';
import type { MenuFormEntry, MenusFormState } from '../../lib/editor/forms';
import { changedMenus } from '../../lib/editor/menus-changes';

type Found = { id: number; slug: string; title: string };
type Keyed = MenuFormEntry & { key?: string };

const MENUS: readonly { menu: MenuName; heading: string; hint: string }[] = [
  {
    menu: 'header',
    heading: 'Header menu',
    hint: 'Beside the site’s name on every page; what does not fit goes into “More”.',
  },
  { menu: 'footer', heading: 'Footer menu', hint: 'Above the footer line on every page.' },
];

export function NavigationMenusForm({
  entries,
  version,
  find,
  found,
}: {
  /** Both menus' entries, the header's first, in their order. */
  entries: MenuFormEntry[];
  /** settingsVersion of the settings shown: a save is refused once another tab has saved. */
  version: string;
  find: string;
  found: Found[];
}) {
  const [answer, action, pending] = useActionState<MenusFormState, FormData>(saveMenus, {});
  // An action that succeeded redirects, and React then leaves undefined as the state.
  const state = answer ?? {};
  return (
    <form action={action} className="menus-form">
      {/* The form's first submit button is the one Enter presses in a field: Save, never the
          first entry's Move up. */}
      <button
        type="submit"
        name="intent"
        value="save"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
      >
        Save menus
      </button>
      {state.message ? (
        <p role="alert" className="form-error">
          {state.message}
        </p>
      ) : null}
      <input type="hidden" name="settings_version" value={state.version ?? version} />
      {/* Remade from each answer of the server (a search, a page added, a refusal), with the
          entries it sent back: what was typed is in them. */}
      <MenuLists
        key={state.round ?? 'first'}
        initial={state.entries ?? entries}
        announced={state.announce}
        focus={state.focus}
      />
      <fieldset className="menus-find">
        <legend>Add a page</legend>
        <label>
          Find published pages{' '}
          <input
            type="search"
            name="find"
            defaultValue={state.find ?? find}
            placeholder="Title, address or text"
          />
        </label>{' '}
        <button type="submit" name="intent" value="find" formNoValidate disabled={pending}>
          Search
        </button>
        <span className="hint">The menus above stay as they are; nothing is saved.</span>
        <ul className="menus-found">
          {(state.found ?? found).map((page) => (
            <li key={page.id}>
              <span>
                {page.title} <code>/{page.slug}</code>
              </span>{' '}
              <span className="menu-buttons">
                {MENUS.map(({ menu }) => (
                  <button
                    key={menu}
                    type="submit"
                    name="intent"
                    value={`add-page:${menu}:${page.id}`}
                    formNoValidate
                    disabled={pending}
                    aria-label={`Add to ${menu}: ${page.title}`}
                  >
                    Add to {menu}
                  </button>
                ))}
              </span>
            </li>
          ))}
        </ul>
      </fieldset>
      <button type="submit" name="intent" value="save" className="primary" disabled={pending}>
        {pending ? 'Saving…' : 'Save menus'}
      </button>
    </form>
  );
}

let made = 0;
/** A key for React that follows an entry as it moves (its index does not). */
const keyed = (entries: Keyed[]): Keyed[] =>
  entries.map((entry) => (entry.key ? entry : { ...entry, key: `e${++made}` }));

function MenuLists({
  initial,
  announced,
  focus,
}: {
  initial: MenuFormEntry[];
  announced?: string;
  focus?: string;
}) {
  const [entries, setEntries] = useState<Keyed[]>(() => keyed(initial));
  const [announce, setAnnounce] = useState(announced ?? '');
  const [dragged, setDragged] = useState<number | null>(null);
  const list = useRef<HTMLDivElement>(null);
  // The control to focus once the change is on screen: the moved entry's same button.
  const toFocus = useRef<string | undefined>(focus);
  useEffect(() => {
    const name = toFocus.current;
    toFocus.current = undefined;
    if (!name) return;
    // Moved to the top, an entry has no Move up any more: its Move down, then its label.
    const at = name.split(':')[1];
    for (const each of [name, `down:${at}`, `up:${at}`, `label:${at}`]) {
      const control = list.current?.querySelector<HTMLElement>(
        `[data-focus="${CSS.escape(each)}"]`,
      );
      if (control) {
        control.focus();
        return;
      }
    }
  });

  const apply = (intent: string) => {
    const change = changedMenus(entries, intent);
    setEntries(keyed(change.entries));
    if (change.announce) setAnnounce(change.announce);
    if (change.message) setAnnounce(change.message);
    toFocus.current = change.focus;
  };
  // With JavaScript the buttons change the list in place; without it they submit.
  const onButton = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    apply(event.currentTarget.value);
  };
  const edit = (index: number, field: 'label' | 'url', value: string) =>
    setEntries((now) =>
      now.map((entry, at) => (at === index ? { ...entry, [field]: value } : entry)),
    );

  // The entry being dragged: a ref, read by dragover at once; the state only dims it, a frame
  // later (Chromium ends a drag whose source element changes during its dragstart).
  const dragging = useRef<number | null>(null);
  const onDragStart = (index: number) => (event: DragEvent<HTMLLIElement>) => {
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', String(index));
    dragging.current = index;
    requestAnimationFrame(() => setDragged(index));
  };
  const onDragOver = (index: number) => (event: DragEvent<HTMLLIElement>) => {
    const from = dragging.current;
    if (from !== null && entries[from]?.menu === entries[index]?.menu) {
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
    }
  };
  const onDragEnd = () => {
    dragging.current = null;
    setDragged(null);
  };
  const onDrop = (index: number) => (event: DragEvent<HTMLLIElement>) => {
    event.preventDefault();
    const from = dragging.current;
    if (from !== null) apply(`to:${from}:${index}`);
    onDragEnd();
  };

  return (
    <div ref={list}>
      <p role="status" className="menus-announce">
        {announce}
      </p>
      {MENUS.map(({ menu, heading, hint }) => {
        const inMenu = entries.flatMap((entry, index) => (entry.menu === menu ? [index] : []));
        return (
          <fieldset key={menu} className="menu-editor" data-menu={menu}>
            <legend>{heading}</legend>
            <span className="hint">
              {hint} Drag an entry by its handle, or use Move up and Move down.
            </span>
            {inMenu.length === 0 ? <p className="menu-empty">No entries.</p> : null}
            <ol className="menu-entries">
              {inMenu.map((index, position) => {
                const entry = entries[index] as Keyed;
                const name =
                  entry.label.trim() ||
                  entry.target?.title ||
                  (entry.kind === 'link' ? 'new link' : `page ${entry.page}`);
                return (
                  <li
                    key={entry.key}
                    className="menu-entry"
                    draggable
                    data-dragging={dragged === index || undefined}
                    onDragStart={onDragStart(index)}
                    onDragOver={onDragOver(index)}
                    onDrop={onDrop(index)}
                    onDragEnd={onDragEnd}
                  >
                    <span className="menu-grip" aria-hidden="true" title="Drag to reorder">
                      ⠿
                    </span>
                    <input type="hidden" name="menu" value={entry.menu} />
                    <input type="hidden" name="kind" value={entry.kind} />
                    <input type="hidden" name="page" value={entry.page ?? ''} />
                    <span className="menu-what">
                      {entry.kind === 'link' ? (
                        'Link'
                      ) : entry.target ? (
                        <>
                          Page: {entry.target.title} <code>/{entry.target.slug}</code>
                        </>
                      ) : (
                        <em>A page visitors do not see now (not published)</em>
                      )}
                    </span>
                    <label>
                      Label{' '}
                      <input
                        name="label"
                        value={entry.label}
                        onChange={(event) => edit(index, 'label', event.target.value)}
                        maxLength={MENU_LABEL_MAX}
                        placeholder={entry.target?.title ?? ''}
                        data-focus={`label:${index}`}
                      />
                    </label>
                    {entry.kind === 'link' ? (
                      <label>
                        Address{' '}
                        <input
                          name="url"
                          value={entry.url}
                          onChange={(event) => edit(index, 'url', event.target.value)}
                          maxLength={MENU_URL_MAX}
                          inputMode="url"
                          spellCheck={false}
                          autoCapitalize="off"
                          placeholder="https://…"
                        />
                      </label>
                    ) : (
                      <input type="hidden" name="url" value="" />
                    )}
                    <span className="menu-buttons">
                      {(
                        [
                          ['up', 'Move up', position > 0],
                          ['down', 'Move down', position < inMenu.length - 1],
                          ['remove', 'Remove', true],
                        ] as const
                      ).map(([verb, words, useful]) =>
                        // The first entry has no Move up, the last no Move down: a button that
                        // does nothing would be a tab stop that says nothing.
                        useful ? (
                          <button
                            key={verb}
                            type="submit"
                            name="intent"
                            value={`${verb}:${index}`}
                            data-focus={`${verb}:${index}`}
                            formNoValidate
                            onClick={onButton}
                            aria-label={`${words}: ${name}`}
                          >
                            {words}
                          </button>
                        ) : null,
                      )}
                    </span>
                  </li>
                );
              })}
            </ol>
            <button
              type="submit"
              name="intent"
              value={`add-link:${menu}`}
              data-focus={`add-link:${menu}`}
              formNoValidate
              onClick={onButton}
            >
              Add a link to the {menu}
            </button>
          </fieldset>
        );
      })}
    </div>
  );
}
