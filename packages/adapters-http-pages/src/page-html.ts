import type { BuiltPage } from './web-assets.js';

/** What one page's HTML carries: its built assets, its language and texts, and the settings its script reads. */
export interface PageHtml {
  readonly page: BuiltPage;
  readonly language: string;
  readonly assetPath: string;
  /** Written as `data-*` attributes on <html> (e.g. the sign-in settings): the script reads them, no inline script. */
  readonly settings?: Readonly<Record<string, string>>;
}

const escapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escaped = (text: string) => text.replace(/[&<>"']/g, (character) => escapes[character]!);

/**
 * A page's HTML: the mount point its script fills, in the page's language. Nothing inline (the CSP allows no inline
 * script or style), nothing from another host.
 */
export function pageHtml({ page, language, assetPath, settings = {} }: PageHtml): string {
  const data = Object.entries(settings)
    .map(([name, value]) => ` data-${name}="${escaped(value)}"`)
    .join('');
  const style = page.style === null ? '' : `<link rel="stylesheet" href="${assetPath}/${page.style}">\n`;
  const preload = (page.preload ?? [])
    .map((chunk) => `<link rel="modulepreload" href="${assetPath}/${escaped(chunk)}">\n`)
    .join('');
  const webManifest = page.webManifest?.[language];
  const installable =
    webManifest === undefined
      ? ''
      : `<link rel="manifest" href="${escaped(webManifest)}">\n${page.themeColor ? `<meta name="theme-color" content="${escaped(page.themeColor)}">\n` : ''}`;
  return `<!doctype html>
<html lang="${escaped(language)}"${data}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${escaped(page.colorScheme ?? 'dark')}">
<title>${escaped(page.title[language] ?? '')}</title>
<link rel="icon" href="data:,">
${installable}${style}<script type="module" src="${assetPath}/${page.script}"></script>
${preload}</head>
<body>
<div id="app"></div>
<noscript><p>${escaped(page.noscript[language] ?? '')}</p></noscript>
</body>
</html>
`;
}
