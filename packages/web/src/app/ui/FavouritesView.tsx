import { useEffect, useState } from 'preact/hooks';
import { personalClient } from '../store/clients.js';
import { hrefFor, onLinkClick } from '../store/navigation.js';
import { usePersonalRead } from '../store/use-personal-read.js';
import { hideDish } from '../store/personal.js';
import { canteens, hiddenDishes, language, session, t } from '../store/state.js';
import { dayLabel } from '../model/days.js';
import { NotifySwitch } from './NotifySwitch.js';
import { SignInButton } from './SignInButton.js';

/** The coming servings of the dishes the person marked, across canteens, each a link to its day; the hidden dishes. */
export function FavouritesView() {
  const texts = t.value;
  const signedIn = session.value;
  return (
    <>
      <h1 class="view-heading">{texts.views.favourites}</h1>
      {signedIn === null ? (
        <div class="signed-out">
          <p>{texts.signInForFavourites}</p>
          <SignInButton />
        </div>
      ) : (
        <>
          <Upcoming />
          <NotifySwitch />
          <HiddenDishes />
        </>
      )}
    </>
  );
}

function Upcoming() {
  const texts = t.value;
  const { answer, problem } = usePersonalRead((client) => client.getUpcoming({ days: 7 }), []);
  const names = new Map((canteens.value ?? []).map((canteen) => [canteen.canteen_id, canteen.name]));
  return (
    <section aria-labelledby="upcoming-heading">
      <h2 id="upcoming-heading">{texts.favouritesHeading}</h2>
      <p class="hint">{texts.upcomingIntro}</p>
      {problem !== null && (
        <p class="problem" role="alert">
          {texts.menuUnavailable(problem)}
        </p>
      )}
      {answer === null && problem === null && <p class="loading">{texts.loading}</p>}
      {answer !== null && answer.servings.length === 0 && <p>{texts.noUpcoming}</p>}
      {answer !== null && answer.servings.length > 0 && (
        <ul class="upcoming">
          {answer.servings.map((serving) => (
            <li key={serving.meal_id}>
              <a
                href={hrefFor({ view: 'menu', canteen: serving.canteen_id, date: serving.date })}
                data-view="menu"
                onClick={onLinkClick}
              >
                <span class="name">{serving.name}</span>
                <span class="where">
                  {names.get(serving.canteen_id) ?? serving.canteen_id} · {dayLabel(serving.date, language.value).full}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function HiddenDishes() {
  const texts = t.value;
  const signedIn = session.value;
  const [dishNames, setDishNames] = useState<ReadonlyMap<number, string>>(new Map());
  const hidden = [...hiddenDishes.value];
  const key = hidden.join(',');
  useEffect(() => {
    if (signedIn === null) return;
    const client = personalClient(() => signedIn.getToken());
    const unknown = hidden.filter((dishId) => !dishNames.has(dishId)).slice(0, 50);
    if (unknown.length === 0) return;
    void Promise.all(
      unknown.map((dishId) =>
        client.getDish(dishId, { limit: 1 }).then(
          (dish) => [dishId, dish.name] as const,
          () => null,
        ),
      ),
    ).then((found) => setDishNames(new Map([...dishNames, ...found.filter((entry) => entry !== null)])));
  }, [key, signedIn]);
  return (
    <section aria-labelledby="hidden-heading">
      <h2 id="hidden-heading">{texts.hiddenDishesHeading}</h2>
      {hidden.length === 0 ? (
        <p>{texts.noHiddenDishes}</p>
      ) : (
        <ul class="hidden-dishes">
          {hidden.map((dishId) => {
            const name = dishNames.get(dishId) ?? `#${dishId}`;
            return (
              <li key={dishId}>
                <span>{name}</span>
                <button type="button" class="quiet" onClick={() => void hideDish({ dish_id: dishId, name }, false)}>
                  {texts.showDishAgain(name)}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
