import type { StoredCanteen } from '@canteen-meals/domain';

/** The canteen list's filters: by number, near a point (km), with or without coordinates. */
export interface CanteenFilters {
  readonly ids?: readonly number[];
  readonly hasCoordinates?: boolean;
  readonly near?: { readonly lat: number; readonly lng: number; readonly distKm: number };
}

/** Geocoder's mean Earth radius, in km. */
const earthRadiusKm = 6371;

/**
 * The canteens the filters keep: by OpenMensa number ascending, or with `near` nearest first (within `distKm`, those
 * without coordinates left out), as openmensa.org orders them.
 */
export function nearestCanteens(canteens: readonly StoredCanteen[], filters: CanteenFilters): StoredCanteen[] {
  const ids = filters.ids === undefined ? undefined : new Set(filters.ids);
  const kept = canteens
    .filter((canteen) => ids === undefined || ids.has(canteen.openmensaId))
    .filter(
      (canteen) => filters.hasCoordinates === undefined || (canteen.coordinates !== null) === filters.hasCoordinates,
    )
    .sort((a, b) => a.openmensaId - b.openmensaId);
  const { near } = filters;
  if (near === undefined) return kept;
  const distances = new Map<StoredCanteen, number>();
  for (const canteen of kept) {
    if (canteen.coordinates === null) continue;
    const distance = distanceKm(near, canteen.coordinates);
    if (distance <= near.distKm) distances.set(canteen, distance);
  }
  return [...distances.keys()].sort((a, b) => distances.get(a)! - distances.get(b)! || a.openmensaId - b.openmensaId);
}

/** The great-circle distance (haversine). */
function distanceKm(from: { lat: number; lng: number }, to: { lat: number; lng: number }): number {
  const radians = Math.PI / 180;
  const dLat = (to.lat - from.lat) * radians;
  const dLng = (to.lng - from.lng) * radians;
  const a =
    Math.sin(dLat / 2) ** 2 + Math.cos(from.lat * radians) * Math.cos(to.lat * radians) * Math.sin(dLng / 2) ** 2;
  return 2 * earthRadiusKm * Math.asin(Math.min(1, Math.sqrt(a)));
}
