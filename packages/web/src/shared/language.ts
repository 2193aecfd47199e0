/** The languages every page speaks; each page has one table of texts per language (its `texts.ts`). */
export const languages = ['en', 'de'] as const;
export type Language = (typeof languages)[number];

export const isLanguage = (value: unknown): value is Language => languages.includes(value as Language);

/** A page's texts: one table per language, each with every key of the English one. */
export type TextTables<Texts> = Readonly<Record<Language, Texts>>;

/** What every page's table holds besides its own texts: the server writes these two into the page's HTML. */
export interface PageTexts {
  readonly title: string;
  readonly noscript: string;
}

/**
 * The page's language: the server chose it (from `?lang=`, else `Accept-Language`) and wrote it on `<html lang>`, so
 * the script and the HTML around it never disagree.
 */
export function pageLanguage(root: { readonly lang: string } = document.documentElement): Language {
  return isLanguage(root.lang) ? root.lang : 'en';
}
