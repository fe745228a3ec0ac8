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

export interface LoginResult {
  user: User;
  token: string;
}

export interface AppConfig {
  defaultTenant: string;
  apiBase: string;
}
