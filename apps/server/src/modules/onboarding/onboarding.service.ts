import type { OnboardingInput } from '@lumina/contracts';
import type { Database } from '../../db/client.ts';
import type { TrainingImageRow, TrainingSetRow, UserProfileRow } from '../../db/schema/index.ts';
import type { TrainingSetsService } from '../training-sets/training-sets.service.ts';
import * as repo from './onboarding.repository.ts';

/**
 * Onboarding (issue 13): a new person's answers (who they are, where from, how they heard of us),
 * editable later; completing or skipping it marks them onboarded (GET /api/user `onboarded`). Their
 * photos go through the training-sets service like any training upload; this service only says which
 * of their sets still wait for a purchase or a training.
 */
export class OnboardingService {
  constructor(
    private readonly db: Database,
    private readonly trainingSets: TrainingSetsService,
  ) {}

  /** The caller's answers, or undefined before they gave any or skipped. */
  async get(userId: string): Promise<UserProfileRow | undefined> {
    return repo.findProfile(this.db, userId);
  }

  /** Saves the answers (checked and normalised by the contract): the first save completes onboarding. */
  async submit(userId: string, input: OnboardingInput): Promise<UserProfileRow> {
    return repo.saveAnswers(this.db, userId, {
      useCase: input.use_case,
      country: input.country,
      // The contract has already made it E.164 (or empty, which means none).
      phone: input.phone ? input.phone : null,
      referralSource: input.referral_source,
      gender: input.gender ?? null,
    });
  }

  /** Skips onboarding for now; a completed onboarding stays completed. */
  async skip(userId: string): Promise<UserProfileRow> {
    return repo.markSkipped(this.db, userId);
  }

  /** The caller's photo sets no standing purchase or training uses yet, newest first. */
  async pendingSets(userId: string): Promise<Array<{ set: TrainingSetRow; photos: TrainingImageRow[] }>> {
    const sets = await this.trainingSets.list(userId);
    const inUse = await repo.setsInUse(
      this.db,
      userId,
      sets.map(({ set }) => set.id),
    );
    return sets.filter(({ set }) => !inUse.has(set.id));
  }
}
