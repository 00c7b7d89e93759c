// Owns which screen /preview/[...slug] shows: ONE table, read top to bottom, the first entry
// whose question the request answers wins. Signed out: a shared draft or the sign-in form.
// /preview with ?new, ?settings, ?navigation, ?media, ?topics, ?profile, ?security, ?redirects, ?help, ?developer, ?people, ?sessions, ?invite=, ?audit, ?webhooks, ?api-keys, or the dashboard; /preview/<slug> with ?confirm=…,
// ?history, ?review, ?edit, or the page's preview. Each screen is its own server component under
// screens/, loading its data from the stores; a new screen is a file and a row here.
// A row's `frame` says what surrounds its screen: 'editor', the editors' chrome (bar and wide
// column); 'site', the screen frames itself as the public site does (a page's preview and a
// share link: the preview is the site, issue 26).
import { createElement, type FunctionComponent } from 'react';
import { mustSetUpFirst } from '../../lib/editor/guard';
import { type Action, can, refusalOf } from '../../lib/editors/permissions';
import { INVITATION_PARAM, SHARE_PARAM } from '../../lib/http/routes';
import { EditorChrome } from './editor-chrome';
import { ApiKeysScreen } from './screens/api-keys';
import type { Asked, ScreenProps } from './screens/asked';
import { AuditScreen } from './screens/audit';
import { ConfirmationScreen, confirmableCommand } from './screens/confirmation';
import { DashboardScreen } from './screens/dashboard';
import { DeveloperScreen } from './screens/developer';
import { EditorScreen } from './screens/editor';
import { ForbiddenScreen } from './screens/forbidden';
import { HelpScreen } from './screens/help';
import { HistoryScreen } from './screens/history';
import { InvitationScreen } from './screens/invitation';
import { MediaScreen } from './screens/media';
import { NavigationScreen } from './screens/navigation';
import { NewPageScreen } from './screens/new-page';
import { PageScreen } from './screens/page';
import { PeopleScreen } from './screens/people';
import { ProfileScreen } from './screens/profile';
import { RedirectsScreen } from './screens/redirects';
import { ReviewScreen } from './screens/review';
import { SecondFactorFirstScreen } from './screens/second-factor-first';
import { SecurityScreen } from './screens/security';
import { SessionsScreen } from './screens/sessions';
import { SettingsScreen } from './screens/settings';
import { SharedDraftScreen } from './screens/shared-draft';
import { SignInScreen } from './screens/sign-in';
import { TopicsScreen } from './screens/topics';
import { WebhooksScreen } from './screens/webhooks';

export type { Asked };

type Screen = {
  /** What the row is, for a reader (and a test): `?edit`, `signed out`… */
  name: string;
  when: (asked: Asked) => boolean;
  screen: FunctionComponent<ScreenProps>;
  frame?: 'editor' | 'site';
  /** What a person must be allowed (editors/permissions.ts) to open it; others get a 403. */
  may?: Action;
};

const signedOut = (asked: Asked) => asked.editor === null;
const dashboard = (asked: Asked) => asked.editor !== null && asked.segments.length === 0;
const aPage = (asked: Asked) => asked.editor !== null && asked.segments.length > 0;

export const SCREENS: readonly Screen[] = [
  {
    name: 'share link',
    when: (asked) => signedOut(asked) && asked.slug !== undefined && asked.params.has(SHARE_PARAM),
    screen: SharedDraftScreen,
    frame: 'site',
  },
  // An invitation's link: signed out (to accept) or in (told to sign out first).
  {
    name: '?invite=',
    when: (asked) => asked.segments.length === 0 && asked.params.has(INVITATION_PARAM),
    screen: InvitationScreen,
  },
  { name: 'signed out', when: signedOut, screen: SignInScreen },
  {
    name: '?new',
    when: (asked) => dashboard(asked) && asked.params.has('new'),
    screen: NewPageScreen,
  },
  {
    name: '?settings',
    when: (asked) => dashboard(asked) && asked.params.has('settings'),
    screen: SettingsScreen,
    may: 'settings.edit',
  },
  {
    name: '?navigation',
    when: (asked) => dashboard(asked) && asked.params.has('navigation'),
    screen: NavigationScreen,
    may: 'settings.edit',
  },
  {
    name: '?media',
    when: (asked) => dashboard(asked) && asked.params.has('media'),
    screen: MediaScreen,
  },
  {
    name: '?profile',
    when: (asked) => dashboard(asked) && asked.params.has('profile'),
    screen: ProfileScreen,
  },
  {
    name: '?security',
    when: (asked) => dashboard(asked) && asked.params.has('security'),
    screen: SecurityScreen,
  },
  {
    name: '?topics',
    when: (asked) => dashboard(asked) && asked.params.has('topics'),
    screen: TopicsScreen,
    may: 'topic.edit',
  },
  {
    name: '?redirects',
    when: (asked) => dashboard(asked) && asked.params.has('redirects'),
    screen: RedirectsScreen,
    may: 'redirect.edit',
  },
  {
    name: '?help',
    when: (asked) => dashboard(asked) && asked.params.has('help'),
    screen: HelpScreen,
  },
  {
    name: '?developer',
    when: (asked) => dashboard(asked) && asked.params.has('developer'),
    screen: DeveloperScreen,
    may: 'settings.edit',
  },
  {
    name: '?people',
    when: (asked) => dashboard(asked) && asked.params.has('people'),
    screen: PeopleScreen,
  },
  {
    name: '?sessions',
    when: (asked) => dashboard(asked) && asked.params.has('sessions'),
    screen: SessionsScreen,
  },
  {
    name: '?audit',
    when: (asked) => dashboard(asked) && asked.params.has('audit'),
    screen: AuditScreen,
  },
  {
    name: '?webhooks',
    when: (asked) => dashboard(asked) && asked.params.has('webhooks'),
    screen: WebhooksScreen,
    may: 'webhooks.manage',
  },
  {
    name: '?api-keys',
    when: (asked) => dashboard(asked) && asked.params.has('api-keys'),
    screen: ApiKeysScreen,
    may: 'api-keys.manage',
  },
  { name: 'dashboard', when: dashboard, screen: DashboardScreen },
  {
    name: '?confirm=',
    when: (asked) => aPage(asked) && confirmableCommand(asked.params) !== undefined,
    screen: ConfirmationScreen,
  },
  {
    name: '?history',
    when: (asked) => aPage(asked) && asked.params.has('history'),
    screen: HistoryScreen,
  },
  {
    name: '?review',
    when: (asked) => aPage(asked) && asked.params.has('review'),
    screen: ReviewScreen,
  },
  {
    name: '?edit',
    when: (asked) => aPage(asked) && asked.params.has('edit'),
    screen: EditorScreen,
  },
  { name: 'page', when: aPage, screen: PageScreen, frame: 'site' },
];

/** Each row's screen in its frame, made once. */
const FRAMED = new Map<Screen, Screen['screen']>(
  SCREENS.map((row) => [
    row,
    row.frame === 'site'
      ? row.screen
      : (props: ScreenProps) =>
          createElement(
            EditorChrome,
            { editor: props.asked.editor },
            createElement(row.screen, props),
          ),
  ]),
);

/** The rows a person the second-factor rule covers, with no factor yet, may open: the one
 * where they set it up (signed-out rows have no person to ask about). */
const OPEN_BEFORE_SECOND_FACTOR = new Set(['?security']);

const secondFactorFirst = (props: ScreenProps) =>
  createElement(
    EditorChrome,
    { editor: props.asked.editor },
    createElement(SecondFactorFirstScreen),
  );

/** The screen for a request, in its frame: the first row that answers it (the last row
 * answers any page); a 403 in words when the person's role may not open it; and, for someone
 * the site's second-factor rule covers who has none yet, only the security screen. */
export async function screenFor(asked: Asked): Promise<Screen['screen']> {
  const row = SCREENS.find((each) => each.when(asked));
  if (!row) throw new Error('the preview screens table has no row for this request');
  const session = asked.editor;
  const person = session?.editor;
  if (session && !OPEN_BEFORE_SECOND_FACTOR.has(row.name) && (await mustSetUpFirst(session)))
    return secondFactorFirst;
  if (row.may && person && !can(person, row.may)) {
    const message = refusalOf(person, row.may);
    return (props: ScreenProps) =>
      createElement(
        EditorChrome,
        { editor: props.asked.editor },
        createElement(ForbiddenScreen, { ...props, message }),
      );
  }
  return FRAMED.get(row) ?? row.screen;
}
