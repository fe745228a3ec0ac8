/** Wire types from the API contract (DESIGN §2, SPEC §3). */
export interface User {
  id: string;
  username: string;
  email: string;
  phone: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  roleId: string;
  status: boolean;
  permissions: string[];
  /** Two-factor sign-in: on, required by the institution, recovery codes left (never a key). */
  twoFactor?: TwoFactorState;
}

export interface TwoFactorState {
  enabled: boolean;
  required: boolean;
  recoveryCodesLeft: number;
}

export interface TenantInfo {
  id: string;
  name: string;
  logoFull: string;
  planId: string;
  themeSetting: ThemeSetting | null;
  seoSetting: Record<string, unknown> | null;
  appIconLogo: string;
  fullWidthAppLogo: string;
  /** websiteUrl is where the institution's website is; "" until it has an address. */
  websiteUrl?: string;
}

/** ThemeSetting is the tenant's theme-settings singleton (SPEC §3). */
export interface ThemeSetting {
  id: string;
  version: number;
  theme: string;
  customCss?: string | null;
  colorSchemeName: string;
  primaryColor: string;
  secondaryColor: string;
  fontFamily: string;
}

export interface TenantInfoResponse {
  result: TenantInfo;
  objectUrlPrefix: string;
}

export interface DashboardStats {
  pageCount: number;
  formCount: number;
  popupCount: number;
  albumCount: number;
  newsletterSignupCount: number;
  customFormSubmissionCount: number;
}

export interface Masters {
  dashboardStats: DashboardStats;
  itemGroups: Record<string, unknown>;
}

export interface Envelope<T> {
  result: T;
  message?: string;
}

export interface SignedIn {
  user: User;
  token: string;
}

/** A sign-in waiting for its second step: a code ("code") or setting two-factor up ("enrol"). */
export interface SecondStep {
  twoFactor: 'code' | 'enrol';
  challenge: string;
}

export type LoginResult = SignedIn | SecondStep;

export function isSecondStep(r: LoginResult): r is SecondStep {
  return 'challenge' in r && typeof r.challenge === 'string';
}

/** One of the user's signed-in sessions (My Profile). */
export interface SessionInfo {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  client: string;
  address: string;
  current: boolean;
}

export interface AppConfig {
  defaultTenant: string;
  apiBase: string;
}
