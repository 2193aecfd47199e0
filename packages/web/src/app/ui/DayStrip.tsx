import { useEffect, useRef } from 'preact/hooks';
import { hrefFor, onLinkClick } from '../store/navigation.js';
import { day, language, t, today, week } from '../store/state.js';
import { dayLabel, stripDays } from '../model/days.js';

/** This week's days and the coming ones: a link each (to share, to go back to); a closed day says so. */
export function DayStrip() {
  const texts = t.value;
  const closed = new Set(week.value?.closedDays ?? []);
  const strip = useRef<HTMLElement>(null);
  // The chosen day in sight (the strip scrolls sideways on a phone): at the start and when another is chosen.
  useEffect(() => {
    strip.current?.querySelector('[aria-current]')?.scrollIntoView({ block: 'nearest', inline: 'center' });
  }, [day.value]);
  return (
    <nav class="day-strip" aria-label={texts.days} ref={strip}>
      <ul>
        {stripDays(today.value).map((each) => {
          const label = dayLabel(each, language.value);
          return (
            <li key={each}>
              <a
                href={hrefFor({ date: each === today.value ? null : each })}
                onClick={onLinkClick}
                aria-current={each === day.value ? 'date' : undefined}
              >
                <span class="weekday">{each === today.value ? texts.today : label.weekday}</span>
                <span class="date">{label.date}</span>
                {closed.has(each) && <span class="closed">{texts.closed}</span>}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
