import { useRef, useState } from 'preact/hooks';
import { messageOf } from '../../shared/api.js';
import { eraseData, exportData, signOut } from '../store/account.js';
import { hrefFor, onLinkClick } from '../store/navigation.js';
import { usePersonalRead } from '../store/use-personal-read.js';
import { language, notice, personal, session, t } from '../store/state.js';
import { dayLabel, dayOf } from '../model/days.js';
import { SignInButton } from './SignInButton.js';

/** The person's rated and marked meals, their data as a file, its erasure (after a confirmation), signing out. */
export function DataView() {
  const texts = t.value;
  const signedIn = session.value;
  return (
    <>
      <h1 class="view-heading">{texts.dataHeading}</h1>
      {signedIn === null ? (
        <div class="signed-out">
          <p>{texts.signInForData}</p>
          <SignInButton />
        </div>
      ) : (
        <>
          <MealList kind="rated" />
          <MealList kind="marked" />
          <Export />
          <Erase />
          <section aria-labelledby="sign-out-heading">
            <h2 id="sign-out-heading">{texts.signOut}</h2>
            <p>{texts.signedInAs(signedIn.user)}</p>
            <button type="button" onClick={() => void signOut()}>
              {texts.signOut}
            </button>
          </section>
        </>
      )}
    </>
  );
}

function MealList({ kind }: { readonly kind: 'rated' | 'marked' }) {
  const texts = t.value;
  // Read again after an erasure or a change elsewhere in the app (the personal part is the server's).
  const { answer: page, problem } = usePersonalRead(
    (client) => (kind === 'rated' ? client.listRatedMeals({ limit: 50 }) : client.listMarkedMeals({ limit: 50 })),
    [kind, personal.value],
  );
  const heading = `${kind}-heading`;
  return (
    <section aria-labelledby={heading}>
      <h2 id={heading}>{kind === 'rated' ? texts.ratedMeals : texts.markedMeals}</h2>
      {problem !== null && (
        <p class="problem" role="alert">
          {texts.menuUnavailable(problem)}
        </p>
      )}
      {page !== null && page.meals.length === 0 && <p>{texts.noneYet}</p>}
      {page !== null && page.meals.length > 0 && (
        <ul class="my-meals">
          {page.meals.map((meal) => {
            // The day on the browser's clocks is close enough for a list; the link opens the canteen's day.
            const date = dayOf(meal.served_at, Intl.DateTimeFormat().resolvedOptions().timeZone);
            return (
              <li key={meal.meal_id}>
                <a
                  href={hrefFor({ view: 'menu', canteen: meal.canteen_id, date })}
                  data-view="menu"
                  onClick={onLinkClick}
                >
                  <span class="name">{meal.name}</span>
                  <span class="where">{dayLabel(date, language.value).full}</span>
                </a>
                {kind === 'rated' && meal.rating_personal !== null && (
                  <span class="mine">{texts.yourStars(meal.rating_personal)}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function Export() {
  const texts = t.value;
  const link = useRef<HTMLAnchorElement>(null);
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const file = await exportData();
      const anchor = link.current;
      if (anchor === null) return;
      anchor.href = file.url;
      anchor.download = file.name;
      anchor.click();
      setTimeout(() => URL.revokeObjectURL(file.url), 60_000);
    } catch (error) {
      notice.value = { kind: 'error', text: texts.saveFailed(messageOf(error)) };
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="export-heading">
      <h2 id="export-heading">{texts.exportData}</h2>
      <p>{texts.exportIntro}</p>
      <button type="button" disabled={busy} onClick={() => void download()}>
        {texts.exportData}
      </button>
      <a ref={link} class="visually-hidden" tabIndex={-1} aria-hidden="true" />
    </section>
  );
}

function Erase() {
  const texts = t.value;
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const erase = async () => {
    try {
      const erased = await eraseData();
      setDone(texts.erased(erased.ratings_erased, erased.markings_erased));
      setConfirming(false);
      personal.value = new Map();
    } catch (error) {
      notice.value = { kind: 'error', text: texts.saveFailed(messageOf(error)) };
    }
  };
  return (
    <section aria-labelledby="erase-heading">
      <h2 id="erase-heading">{texts.eraseData}</h2>
      <p>{texts.eraseIntro}</p>
      {confirming ? (
        <div class="panel-actions" role="group" aria-labelledby="erase-heading">
          <button type="button" class="quiet" onClick={() => setConfirming(false)}>
            {texts.cancel}
          </button>
          <button type="button" class="danger" onClick={() => void erase()}>
            {texts.eraseConfirm}
          </button>
        </div>
      ) : (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          {texts.eraseData}
        </button>
      )}
      <p role="status">{done}</p>
    </section>
  );
}
