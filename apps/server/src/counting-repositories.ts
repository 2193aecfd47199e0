import type {
  AuditNote,
  AvailabilityChange,
  AvailabilityRefusal,
  ErasedUserData,
  MealId,
  RatingChange,
  RatingRefusal,
  Result,
  UserData,
  UserId,
} from '@canteen-meals/domain';
import type {
  AvailabilityDecision,
  AvailabilityRepository,
  MarkingRepository,
  RatingDecision,
  RatingRepository,
  UserDataRepository,
} from '@canteen-meals/domain/ports';
import type { ServiceMetrics } from './service-metrics.js';

/**
 * Decorators that count what the ports actually wrote, so the domain stays free of metrics. The rating port
 * reports the previous and next value, so a re-rate to the same value or a delete of nothing is not counted.
 */
export class CountingRatingRepository implements RatingRepository {
  constructor(
    private readonly inner: RatingRepository,
    private readonly metrics: Pick<ServiceMetrics, 'ratingChanged'>,
  ) {}

  async change(userId: UserId, mealId: MealId, decide: RatingDecision): Promise<Result<RatingChange, RatingRefusal>> {
    const decision = await this.inner.change(userId, mealId, decide);
    if (decision.ok) this.metrics.ratingChanged(decision.value);
    return decision;
  }
}

export class CountingAvailabilityRepository implements AvailabilityRepository {
  constructor(
    private readonly inner: AvailabilityRepository,
    private readonly metrics: Pick<ServiceMetrics, 'availabilityChanged'>,
  ) {}

  async change(
    mealId: MealId,
    decide: AvailabilityDecision,
    audit?: AuditNote<AvailabilityChange>,
  ): Promise<Result<AvailabilityChange, AvailabilityRefusal>> {
    // The audit note goes along: the entry is written in the change's own unit of work.
    const decision = await this.inner.change(mealId, decide, audit);
    if (decision.ok) this.metrics.availabilityChanged(decision.value);
    return decision;
  }
}

export class CountingMarkingRepository implements MarkingRepository {
  constructor(
    private readonly inner: MarkingRepository,
    private readonly metrics: Pick<ServiceMetrics, 'markingSet'>,
  ) {}

  async setMarked(userId: UserId, mealId: MealId, marked: boolean): Promise<boolean> {
    const mealExists = await this.inner.setMarked(userId, mealId, marked);
    if (mealExists) this.metrics.markingSet(marked);
    return mealExists;
  }
}

/** An erasure deletes ratings and unmarks meals like the routes do, so the counters see it as well. */
export class CountingUserDataRepository implements UserDataRepository {
  constructor(
    private readonly inner: UserDataRepository,
    private readonly metrics: Pick<ServiceMetrics, 'userDataErased'>,
  ) {}

  exportAll(userId: UserId): Promise<UserData> {
    return this.inner.exportAll(userId);
  }

  async eraseAll(userId: UserId): Promise<ErasedUserData> {
    const erased = await this.inner.eraseAll(userId);
    this.metrics.userDataErased(erased);
    return erased;
  }
}
