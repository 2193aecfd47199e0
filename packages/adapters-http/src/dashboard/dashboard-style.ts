/**
 * The dashboard's style sheet: large type and high contrast (a wall screen across a kitchen, a phone in a hand); one
 * column on a phone, a grid of meals beside the ranking on a wide screen. Text in a TypeScript module, as the script.
 */
export const dashboardStyle = String.raw`:root {
  color-scheme: dark;
  --background: #0b0d10;
  --panel: #161a20;
  --line: #38404c;
  --text: #ffffff;
  --muted: #c9d1db;
  --accent: #ffd23f;
  --live: #5ef08a;
  --warning: #ffb347;
  --error: #ff7a7a;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  font-size: clamp(16px, 1.1vw + 10px, 30px);
  line-height: 1.35;
  background: var(--background);
  color: var(--text);
}

* { box-sizing: border-box; }
body { margin: 0; padding: 1rem; }
h1, h2, h3, p { margin: 0; }

header {
  display: flex;
  flex-wrap: wrap;
  align-items: end;
  gap: 0.75rem 1.5rem;
  margin-bottom: 1rem;
}
h1 { font-size: 1.6rem; flex: 1 1 100%; }
label { display: flex; flex-direction: column; gap: 0.2rem; color: var(--muted); font-size: 0.85rem; }
select, input {
  font: inherit;
  font-size: 1.05rem;
  color: var(--text);
  background: var(--panel);
  border: 2px solid var(--line);
  border-radius: 0.4rem;
  padding: 0.35rem 0.5rem;
  min-height: 2.75rem;
}
select:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
#status { font-weight: 600; padding: 0.3rem 0.6rem; border-radius: 999px; border: 2px solid currentColor; }
#status[data-kind='live'] { color: var(--live); }
#status[data-kind='warning'], #status[data-kind='loading'] { color: var(--warning); }
#status[data-kind='error'] { color: var(--error); }

main { display: grid; gap: 1rem; grid-template-columns: 1fr; }
section > h2 { font-size: 1.2rem; color: var(--accent); margin-bottom: 0.5rem; }
ul, ol { list-style: none; margin: 0; padding: 0; }

#meals { display: grid; gap: 0.75rem; grid-template-columns: 1fr; }
.meal {
  background: var(--panel);
  border: 2px solid var(--line);
  border-radius: 0.6rem;
  padding: 0.8rem 1rem;
  display: grid;
  gap: 0.5rem;
}
.meal-name { font-size: 1.15rem; overflow-wrap: anywhere; }
.meal-category { color: var(--muted); font-size: 0.85rem; }
.figures { display: flex; align-items: baseline; gap: 0.75rem; flex-wrap: wrap; }
.average { font-size: 2.4rem; font-weight: 800; color: var(--accent); font-variant-numeric: tabular-nums; }
.count { color: var(--muted); }

.distribution { display: grid; gap: 0.2rem; }
.bar-row { display: grid; grid-template-columns: 2.6em 1fr 2.5em; align-items: center; gap: 0.5rem; }
.bar-label { color: var(--muted); font-size: 0.85rem; white-space: nowrap; }
.bar-track { height: 0.9rem; background: var(--background); border: 1px solid var(--line); border-radius: 0.2rem; overflow: hidden; }
.bar {
  display: block;
  height: 100%;
  width: calc(var(--share, 0) * 100%);
  background: var(--accent);
  transition: width 0.3s ease-out;
}
.bar-value { text-align: right; font-variant-numeric: tabular-nums; font-size: 0.85rem; }

#ranking { counter-reset: none; display: grid; gap: 0.35rem; }
.ranked {
  display: grid;
  grid-template-columns: 2em 1fr auto;
  gap: 0.5rem;
  align-items: baseline;
  background: var(--panel);
  border: 2px solid var(--line);
  border-radius: 0.4rem;
  padding: 0.4rem 0.6rem;
}
.rank { font-weight: 800; color: var(--accent); font-variant-numeric: tabular-nums; }
.ranked-name { overflow-wrap: anywhere; }
.ranked-figures { color: var(--muted); font-variant-numeric: tabular-nums; white-space: nowrap; }
#no-meals { color: var(--muted); }

@media (min-width: 56rem) {
  main { grid-template-columns: 3fr 1fr; align-items: start; }
  #meals { grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); }
}

@media (prefers-reduced-motion: reduce) {
  .bar { transition: none; }
}
`;
