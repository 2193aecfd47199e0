import type { RatingsReportRow } from '@canteen-meals/domain';
import { ratingsReportColumns, type RatingsReportColumn } from '@canteen-meals/http-contract';
import { byteOrderMark, csvLine, textField } from './csv.js';

/** Rows per chunk of the answer: about a full canteen day, tens of kilobytes, instead of one write per row. */
const rowsPerChunk = 500;

/**
 * The ratings report as CSV text, in chunks: the byte order mark and the header row, then one line per row, made as
 * the rows are iterated (one pass; nothing but the current chunk is held besides the rows themselves).
 */
export async function* ratingsCsvChunks(
  rows: AsyncIterable<RatingsReportRow>,
): AsyncGenerator<string, void, undefined> {
  let chunk = byteOrderMark + csvLine(ratingsReportColumns);
  let inChunk = 0;
  for await (const row of rows) {
    chunk += csvLine(ratingsCsvFields(row));
    if (++inChunk === rowsPerChunk) {
      yield chunk;
      chunk = '';
      inChunk = 0;
    }
  }
  if (chunk !== '') yield chunk;
}

/** One row's fields, in the order of `ratingsReportColumns`. */
export function ratingsCsvFields({
  date,
  meal,
  dish,
  statistics,
  distribution,
  soldOutAt,
}: RatingsReportRow): string[] {
  const fields: Record<RatingsReportColumn, string> = {
    date,
    served_at: meal.servedAt.toISOString(),
    meal_id: String(meal.id),
    dish_id: String(dish.id),
    dish: textField(dish.name),
    name: textField(meal.name),
    category: textField(meal.category),
    rating_count: String(statistics.count),
    rating_average: averageOf(distribution),
    rating_median: statistics.median === null ? '' : String(statistics.median),
    stars_1: String(distribution[0]),
    stars_2: String(distribution[1]),
    stars_3: String(distribution[2]),
    stars_4: String(distribution[3]),
    stars_5: String(distribution[4]),
    sold_out_at: soldOutAt?.toISOString() ?? '',
  };
  return ratingsReportColumns.map((column) => fields[column]);
}

/**
 * The mean rating rounded half up to at most 2 decimals, with a dot (`4.33`, `3.5`, `4`); empty without ratings.
 * Computed from the integer counts, so that a mean exactly between two hundredths rounds up: 41 / 40 = 1.025 is
 * `1.03`, where the binary fraction nearest 1.025 (1.02499...) times 100 would round to `1.02`.
 */
function averageOf(distribution: readonly number[]): string {
  let count = 0;
  let sum = 0;
  distribution.forEach((n, index) => {
    count += n;
    sum += n * (index + 1);
  });
  return count === 0 ? '' : String(Math.round((sum * 100) / count) / 100);
}
