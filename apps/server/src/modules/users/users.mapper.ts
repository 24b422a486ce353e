import type { AuthLoginMethodRow, UserRow } from '../../db/schema/index.ts';

/** The FDI 4.x `user` object (docs/reference/supertokens-fdi/CONTRACT.md §3). `loginMethods` must be present or the prebuilt UI crashes. */
export interface FdiUser {
  id: string;
  isPrimaryUser: boolean;
  tenantIds: string[];
  timeJoined: number;
  emails: string[];
  phoneNumbers: string[];
  thirdParty: Array<{ id: string; userId: string }>;
  webauthn: { credentialIds: string[] };
  loginMethods: FdiLoginMethod[];
}

export interface FdiLoginMethod {
  recipeId: string;
  recipeUserId: string;
  tenantIds: string[];
  timeJoined: number;
  verified: boolean;
  email?: string;
  phoneNumber?: string;
  thirdParty?: { id: string; userId: string };
}

const unique = <T>(values: T[]) => [...new Set(values)];

export function toFdiUser(
  user: UserRow,
  methods: AuthLoginMethodRow[],
  webauthnCredentialIds: string[],
): FdiUser {
  const loginMethods = methods.map(toFdiLoginMethod);
  return {
    id: user.id,
    isPrimaryUser: methods.length > 1,
    tenantIds: unique(methods.flatMap((m) => m.tenantIds)),
    timeJoined: user.createdAt.getTime(),
    emails: unique(methods.flatMap((m) => (m.email ? [m.email] : []))),
    phoneNumbers: unique(methods.flatMap((m) => (m.phoneNumber ? [m.phoneNumber] : []))),
    thirdParty: loginMethods.flatMap((m) => (m.thirdParty ? [m.thirdParty] : [])),
    webauthn: { credentialIds: webauthnCredentialIds },
    loginMethods,
  };
}

function toFdiLoginMethod(m: AuthLoginMethodRow): FdiLoginMethod {
  return {
    recipeId: m.recipeId,
    recipeUserId: m.id,
    tenantIds: m.tenantIds,
    timeJoined: m.createdAt.getTime(),
    verified: m.verified,
    ...(m.email ? { email: m.email } : {}),
    ...(m.phoneNumber ? { phoneNumber: m.phoneNumber } : {}),
    ...(m.thirdPartyId && m.thirdPartyUserId
      ? { thirdParty: { id: m.thirdPartyId, userId: m.thirdPartyUserId } }
      : {}),
  };
}

/** The signed-in person's profile (`GET /api/user`): the email they sign in with, and whether they operate the site. */
export interface ProfileView {
  id: string;
  email: string | null;
  is_operator: boolean;
  /** Completed or skipped onboarding. */
  onboarded: boolean;
}

export function toProfileView(
  user: UserRow,
  email: string | null,
  isOperator: boolean,
  onboarded: boolean,
): ProfileView {
  return { id: user.id, email, is_operator: isOperator, onboarded };
}
