// @vitest-environment happy-dom
// A meal card of the students' app against the app's signals (data/state.ts), signed out and in, in English and German.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { h } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../src/shared/sign-in-settings.js';
import {
  labels,
  language,
  liveFigures,
  notice,
  now,
  pending,
  personal,
  priceGroup,
  session,
  topPlaces,
} from '../src/app/store/state.js';
import type { MenuMeal } from '../src/app/model/menu-day.js';
import { MealCard } from '../src/app/ui/MealCard.js';
import { menuMeal, someLabels } from './app-fixtures.js';

const signedIn: Session = { user: 'x', getToken: async () => 't', signOut: async () => {} };
/** Before the lentil soup is served (11:30 UTC), and a day after. */
const morning = new Date('2026-03-10T08:00:00.000Z');
const nextDay = new Date('2026-03-11T12:00:00.000Z');

const spaced = (text: string | null | undefined) => text?.replace(/[\u00a0\u202f]/g, ' ');
const show = (meal: MenuMeal = menuMeal()) => render(h(MealCard, { meal }));
const card = (name = 'Lentil soup') => screen.getByRole('article', { name });

beforeEach(() => {
  localStorage.clear();
  language.value = 'en';
  labels.value = someLabels;
  session.value = null;
  personal.value = new Map();
  liveFigures.value = new Map();
  topPlaces.value = new Map();
  pending.value = [];
  notice.value = null;
  priceGroup.value = 'student';
  now.value = morning;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('MealCard signed out', () => {
  it("is an article named by the meal's name, with the student price", () => {
    show();
    const article = card();
    expect(within(article).getByRole('heading', { name: 'Lentil soup' })).toBeTruthy();
    expect(spaced(article.querySelector('.price')?.textContent)).toBe('€2.90');
    expect(within(article).getByText('€2.90', { normalizer: (text) => spaced(text)!.trim() })).toBeTruthy();
  });

  it('asks to sign in, and offers no stars, no favourite', () => {
    show();
    expect(within(card()).getByText('Sign in to rate meals and mark favourites.')).toBeTruthy();
    expect(screen.queryByRole('radiogroup')).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Favourite' })).toBeNull();
  });

  it("shows the chosen group's price, or says there is none", () => {
    priceGroup.value = 'employee';
    show();
    expect(spaced(card().querySelector('.price')?.textContent)).toBe('€4.10');
    cleanup();
    priceGroup.value = 'pupil';
    show();
    expect(within(card()).getByText('No price given')).toBeTruthy();
  });

  it("names the meal's labels the vocabulary knows, in the meal's order", () => {
    show(menuMeal({ labels: ['gluten', 'unknown_code', 'vegan', 'vegetarian'] }));
    const list = within(card()).getByRole('list', { name: 'Labels' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Cereals containing gluten', 'vegan', 'vegetarian']);
  });

  it('says "Sold out" or "Few left", and nothing while available', () => {
    show(menuMeal({ availability: 'sold_out' }));
    expect(within(card()).getByText('Sold out')).toBeTruthy();
    cleanup();
    show(menuMeal({ availability: 'few_left' }));
    expect(within(card()).getByText('Few left')).toBeTruthy();
    cleanup();
    show();
    expect(screen.queryByText('Sold out')).toBeNull();
    expect(screen.queryByText('Few left')).toBeNull();
  });

  it("follows the live figures: sold out while shown, and the ratings' summary", async () => {
    show();
    expect(within(card()).getByText('Not rated yet')).toBeTruthy();
    await act(() => {
      liveFigures.value = new Map([
        [42, { availability: 'sold_out', rating_count: 4, rating_average: 3.75, rating_median: 4 }],
      ]);
    });
    expect(within(card()).getByText('Sold out')).toBeTruthy();
    expect(within(card()).getByText('3.8 of 5 stars from 4 ratings')).toBeTruthy();
  });

  it('shows the median on request', () => {
    show(menuMeal({ rating_count: 3, rating_average: 4, rating_median: 4.5 }));
    const button = within(card()).getByRole('button', { name: 'Median' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('Median 4.5 of 5')).toBeNull();
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('Median 4.5 of 5')).toBeTruthy();
  });

  it("says the meal's place in the day's top three", () => {
    topPlaces.value = new Map([[42, 2]]);
    show();
    expect(within(card()).getByText('Top 2 of the day')).toBeTruthy();
  });
});

describe('MealCard signed in', () => {
  beforeEach(() => {
    session.value = signedIn;
  });

  it('offers the stars and a "Favourite" toggle, not pressed, while rating is open', () => {
    show();
    expect(within(card()).getByRole('radiogroup', { name: 'Your rating' })).toBeTruthy();
    expect(screen.getAllByRole('radio')).toHaveLength(5);
    const favourite = within(card()).getByRole('button', { name: 'Favourite' });
    expect(favourite.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByText('Sign in to rate meals and mark favourites.')).toBeNull();
  });

  it("shows the person's own rating and marking", () => {
    personal.value = new Map([[42, { marked: true, rating: 3 }]]);
    show();
    expect((screen.getByRole('radio', { name: '3 stars' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Favourite' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Remove my rating' })).toBeTruthy();
  });

  it('appears as soon as the person signs in', async () => {
    session.value = null;
    show();
    expect(screen.queryByRole('radiogroup')).toBeNull();
    await act(() => {
      session.value = signedIn;
    });
    expect(screen.getByRole('radiogroup', { name: 'Your rating' })).toBeTruthy();
  });

  it('says why rating is closed: not served yet, over, or not rateable; the favourite stays', () => {
    show(menuMeal({ rating_open: false, served_at: '2026-03-10T11:30:00.000Z' }));
    expect(within(card()).getByText('Rating opens when it is served')).toBeTruthy();
    expect(screen.queryByRole('radiogroup')).toBeNull();
    expect(screen.getByRole('button', { name: 'Favourite' })).toBeTruthy();
    cleanup();
    now.value = nextDay;
    show(menuMeal({ rating_open: false }));
    expect(within(card()).getByText('Rating closed a week after serving')).toBeTruthy();
    cleanup();
    show(menuMeal({ rating_open: false, rateable: false }));
    expect(within(card()).getByText('This meal takes no ratings')).toBeTruthy();
  });

  it('rates at once and shows the answer: POST /rate-meal with the stars chosen', async () => {
    now.value = nextDay;
    const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      Response.json({
        status: 'success',
        data: { rating_count: 1, rating_average: 4, rating_median: 4, rating_personal: 4 },
      }),
    );
    vi.stubGlobal('fetch', fetch);
    show();
    await act(() => {
      fireEvent.click(screen.getByRole('radio', { name: '4 stars' }));
    });
    await waitFor(() => expect(screen.getByText('4.0 of 5 stars from 1 rating')).toBeTruthy());
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toMatch(/\/rate-meal$/);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ meal_id: 42, rating: 4 });
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer t');
    expect((screen.getByRole('radio', { name: '4 stars' }) as HTMLInputElement).checked).toBe(true);
    expect(personal.value.get(42)).toEqual({ marked: false, rating: 4 });
  });

  it('undoes a rating the server refuses, and says why', async () => {
    personal.value = new Map([[42, { marked: false, rating: 2 }]]);
    const refusal = { status: 'error', error: { code: 'meal_not_rateable', message: 'This meal cannot be rated.' } };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(refusal, { status: 422 })),
    );
    show();
    await act(() => {
      fireEvent.click(screen.getByRole('radio', { name: '5 stars' }));
    });
    await waitFor(() => expect(notice.value?.text).toBe('Not saved for “Lentil soup”: This meal cannot be rated.'));
    expect(notice.value?.kind).toBe('error');
    expect(personal.value.get(42)).toEqual({ marked: false, rating: 2 });
    expect((screen.getByRole('radio', { name: '2 stars' }) as HTMLInputElement).checked).toBe(true);
    expect(pending.value).toEqual([]);
  });

  it('keeps a rating made offline to send later, and says it waits', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    show();
    await act(() => {
      fireEvent.click(screen.getByRole('radio', { name: '5 stars' }));
    });
    await waitFor(() => expect(within(card()).getByText('Waiting to send')).toBeTruthy());
    expect(pending.value).toEqual([{ kind: 'rate', meal_id: 42, rating: 5 }]);
    expect((screen.getByRole('radio', { name: '5 stars' }) as HTMLInputElement).checked).toBe(true);
  });
});

describe('MealCard in German', () => {
  beforeEach(() => {
    language.value = 'de';
  });

  it('writes the price "2,90 €", "Ausverkauft", and German label names', () => {
    show(menuMeal({ availability: 'sold_out', labels: ['gluten', 'vegan'] }));
    const article = card();
    expect(spaced(article.querySelector('.price')?.textContent)).toBe('2,90 €');
    expect(within(article).getByText('Ausverkauft')).toBeTruthy();
    const list = within(article).getByRole('list');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Glutenhaltiges Getreide', 'vegan']);
  });

  it('names the stars "Deine Bewertung", "1 Stern", "2 Sterne" signed in', () => {
    session.value = signedIn;
    show();
    expect(screen.getByRole('radiogroup', { name: 'Deine Bewertung' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: '1 Stern' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: '2 Sterne' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Favorit' })).toBeTruthy();
  });

  it('asks to sign in in German signed out', () => {
    show();
    expect(screen.getByText('Melde dich an, um Gerichte zu bewerten und Favoriten zu merken.')).toBeTruthy();
  });
});
