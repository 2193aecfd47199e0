/** The dashboard's HTML: controls, the meals and the ranking; the script fills them. Nothing loads from other hosts. */
export function dashboardPage(assets: { readonly style: string; readonly script: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>Kitchen dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets.style}">
<script type="module" src="${assets.script}"></script>
</head>
<body>
<header>
<h1>Kitchen dashboard</h1>
<label for="canteen">Canteen <select id="canteen" name="canteen"></select></label>
<label for="date">Day <input id="date" name="date" type="date" required></label>
<p id="status" role="status" aria-live="polite" data-kind="loading">Loading…</p>
</header>
<main>
<section aria-labelledby="meals-heading">
<h2 id="meals-heading">Meals</h2>
<p id="no-meals" hidden>No meals on this day.</p>
<ul id="meals"></ul>
</section>
<section aria-labelledby="ranking-heading">
<h2 id="ranking-heading">Ranking of the day</h2>
<ol id="ranking"></ol>
</section>
</main>
<noscript><p>The dashboard needs JavaScript.</p></noscript>
</body>
</html>
`;
}
