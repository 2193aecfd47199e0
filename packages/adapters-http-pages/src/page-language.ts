import Negotiator from 'negotiator';

/**
 * The page's language: `?lang=` when it names one the pages speak, else the best of `Accept-Language` (`de-DE`
 * finds `de`; q-values count), else the first (English).
 */
export function pageLanguageOf(
  asked: string | undefined,
  acceptLanguage: string | undefined,
  languages: readonly string[],
): string {
  if (asked !== undefined && languages.includes(asked)) return asked;
  const negotiated = new Negotiator({ headers: { 'accept-language': acceptLanguage ?? '' } }).language([...languages]);
  return negotiated ?? languages[0] ?? 'en';
}
