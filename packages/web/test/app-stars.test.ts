// @vitest-environment happy-dom
// The stars of a meal card: native radios in a named radio group (the JSX components are rendered with `h`, as
// vitest's include pattern takes *.test.ts only).
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { h } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { language } from '../src/app/store/state.js';
import { Stars } from '../src/app/ui/Stars.js';

const radios = () => screen.getAllByRole('radio') as HTMLInputElement[];

beforeEach(() => {
  language.value = 'en';
});
afterEach(cleanup);

describe('Stars', () => {
  it('is a radio group "Your rating" of five radios, "1 star" to "5 stars", none checked before rating', () => {
    render(h(Stars, { mealId: 42, rating: null, onRate: vi.fn() }));
    const group = screen.getByRole('radiogroup', { name: 'Your rating' });
    expect(radios()).toHaveLength(5);
    expect(radios().map((radio) => radio.closest('[role="radiogroup"]'))).toEqual(Array(5).fill(group));
    for (const name of ['1 star', '2 stars', '3 stars', '4 stars', '5 stars'])
      expect(screen.getByRole('radio', { name })).toBeTruthy();
    expect(radios().every((radio) => !radio.checked)).toBe(true);
    expect(screen.queryByRole('button', { name: 'Remove my rating' })).toBeNull();
  });

  it('calls onRate with the number of stars chosen', () => {
    const onRate = vi.fn();
    render(h(Stars, { mealId: 42, rating: null, onRate }));
    fireEvent.click(screen.getByRole('radio', { name: '4 stars' }));
    expect(onRate).toHaveBeenCalledTimes(1);
    expect(onRate).toHaveBeenCalledWith(4);
    fireEvent.click(screen.getByRole('radio', { name: '1 star' }));
    expect(onRate).toHaveBeenLastCalledWith(1);
  });

  it('with a rating of 3, the third radio is checked, and "Remove my rating" calls onRate(null)', () => {
    const onRate = vi.fn();
    render(h(Stars, { mealId: 42, rating: 3, onRate }));
    expect(radios().map((radio) => radio.checked)).toEqual([false, false, true, false, false]);
    expect((screen.getByRole('radio', { name: '3 stars' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove my rating' }));
    expect(onRate).toHaveBeenCalledTimes(1);
    expect(onRate).toHaveBeenCalledWith(null);
  });

  it('shows the rating it is given when that changes', () => {
    const onRate = vi.fn();
    const { rerender } = render(h(Stars, { mealId: 42, rating: 3, onRate }));
    rerender(h(Stars, { mealId: 42, rating: 5, onRate }));
    expect(radios().map((radio) => radio.checked)).toEqual([false, false, false, false, true]);
    rerender(h(Stars, { mealId: 42, rating: null, onRate }));
    expect(radios().every((radio) => !radio.checked)).toBe(true);
    expect(screen.queryByRole('button', { name: 'Remove my rating' })).toBeNull();
  });

  it("keeps two meals' stars apart: a group and a radio name each", () => {
    const first = vi.fn();
    const second = vi.fn();
    render(
      h(
        'div',
        null,
        h(Stars, { mealId: 1, rating: 2, onRate: first }),
        h(Stars, { mealId: 2, rating: 5, onRate: second }),
      ),
    );
    const groups = screen.getAllByRole('radiogroup', { name: 'Your rating' });
    expect(groups).toHaveLength(2);
    expect(new Set(radios().map((radio) => radio.name)).size).toBe(2);
    const checked = radios().filter((radio) => radio.checked);
    expect(checked.map((radio) => radio.value)).toEqual(['2', '5']);
    const inSecond = [...groups[1]!.querySelectorAll('input')].find((radio) => radio.value === '3')!;
    fireEvent.click(inSecond);
    expect(second).toHaveBeenCalledWith(3);
    expect(first).not.toHaveBeenCalled();
  });

  it('speaks German: "Deine Bewertung", "1 Stern", "2 Sterne", "Bewertung löschen"', () => {
    language.value = 'de';
    render(h(Stars, { mealId: 42, rating: 2, onRate: vi.fn() }));
    expect(screen.getByRole('radiogroup', { name: 'Deine Bewertung' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: '1 Stern' })).toBeTruthy();
    expect((screen.getByRole('radio', { name: '2 Sterne' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('radio', { name: '5 Sterne' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Bewertung löschen' })).toBeTruthy();
  });
});
