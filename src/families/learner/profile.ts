/**
 * The learner-facing API's part of a target profile: `families.learner` (default: the target URL +
 * /api/rest/v2, public-facts), `credentials.learner` and `expectations.learner`.
 */
import { closed } from '../../profile/base/schema-parts.js';
import type { FamilyCredentials, FamilyTarget } from '../../profile/base/types.js';
import type { FamilyProfile } from '../family.js';

/** The learner API where the specification says "not shown". */
export interface LearnerExpectations {
  /** Whether GET /my-branding of the profile's learner has department branding: `present`, `absent` or `either`. */
  readonly branding: 'present' | 'absent' | 'either';
  /** Whether the profile's learner has completed sessions to list with includeCompletedSessions=true
   * (in the instructor-led courses' session lists or the calendar): `present`, `absent` or `either`. */
  readonly completedSessions: 'present' | 'absent' | 'either';
}

declare module '../../profile/base/types.js' {
  interface FamilyTargets {
    readonly learner: FamilyTarget;
  }
  interface FamilyCredentialSets {
    readonly learner: FamilyCredentials;
  }
  interface Expectations {
    readonly learner: LearnerExpectations;
  }
}

export const LEARNER_PROFILE: FamilyProfile = {
  baseUrl: { suffix: '/api/rest/v2' },
  ownCredentials: {
    defaults: { username: { env: 'LPC_LEARNER_USERNAME' }, password: { env: 'LPC_LEARNER_PASSWORD' } },
    description: "Learner API: a learner's username and password (default LPC_LEARNER_USERNAME, LPC_LEARNER_PASSWORD), or a learner token.",
  },
  schema: {
    expectations: {
      learner: closed({
        branding: {
          type: 'string',
          enum: ['present', 'absent', 'either'],
          description: "Whether GET /my-branding of the profile's learner has department branding.",
        },
        completedSessions: {
          type: 'string',
          enum: ['present', 'absent', 'either'],
          description:
            "Whether the profile's learner has completed sessions (ended before the run) in a session list: present makes a list that never shows more with includeCompletedSessions=true a failure; absent or either skips that check then.",
        },
      }),
    },
  },
  expectations: { learner: { branding: 'present', completedSessions: 'present' } satisfies LearnerExpectations },
};
