import { language, t } from '../store/state.js';

/** The other language: the same place with `?lang=` (a page load: the server writes the page in that language). */
export function LanguageLink() {
  const other = language.value === 'de' ? 'en' : 'de';
  const url = new URL(location.href);
  url.hash = '';
  url.searchParams.set('lang', other);
  return (
    <a class="language" href={`${url.pathname}${url.search}`} hreflang={other} lang={other}>
      {t.value.language}
    </a>
  );
}
