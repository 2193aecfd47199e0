import { hrefFor, onLinkClick } from '../store/navigation.js';
import { t, view, views } from '../store/state.js';
import { DataView } from './DataView.js';
import { FavouritesView } from './FavouritesView.js';
import { LanguageLink } from './LanguageLink.js';
import { MenuView } from './MenuView.js';
import { SignInButton } from './SignInButton.js';
import { ConnectionStatus, StatusLine } from './StatusLine.js';

/** The app: its bar (name, sign-in, language), the views as tabs with URLs, what is going on, and the view. */
export function App() {
  const texts = t.value;
  return (
    <>
      <header class="bar">
        <p class="app-name">{texts.appName}</p>
        <div class="bar-end">
          <ConnectionStatus />
          <LanguageLink />
          <SignInButton />
        </div>
      </header>
      <nav class="views" aria-label={texts.mainNavigation}>
        <ul>
          {views.map((each) => (
            <li key={each}>
              <a
                href={hrefFor({ view: each })}
                data-view={each}
                onClick={onLinkClick}
                aria-current={view.value === each ? 'page' : undefined}
              >
                {texts.views[each]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <StatusLine />
      <main id="main" tabIndex={-1}>
        {view.value === 'menu' ? <MenuView /> : view.value === 'favourites' ? <FavouritesView /> : <DataView />}
      </main>
    </>
  );
}
