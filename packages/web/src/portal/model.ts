import type { APIUser } from 'discord-api-types/v10';

/** Default install settings of one installation context (0 guild, 1 user). */
export interface InstallParams {
  scopes: string[];
  permissions: string;
}

export type IntegrationTypesConfig = Partial<
  Record<'0' | '1', { oauth2_install_params?: InstallParams }>
>;

/**
 * An application as its owner reads it (`GET /applications/{id}`): the platform's fields plus the
 * owner-only settings the portal edits (docs/portal-api: `private_channel_obfuscation`,
 * `social_sdk_terms_accepted`…). Fields a server may not send yet are optional.
 */
export interface PortalApplication {
  id: string;
  name: string;
  icon: string | null;
  /** The cover image's hash, when the app has one (the platform leaves the field out). */
  cover_image?: string;
  description: string;
  flags: number;
  verify_key: string;
  bot?: APIUser;
  bot_public: boolean;
  bot_require_code_grant: boolean;
  redirect_uris: string[];
  interactions_endpoint_url: string | null;
  event_webhooks_url: string | null;
  event_webhooks_status: number;
  event_webhooks_types: string[];
  tags: string[];
  approximate_guild_count?: number;
  approximate_user_count?: number;
  integration_types_config?: IntegrationTypesConfig;
  install_params?: InstallParams;
  custom_install_url?: string | null;
  public_client?: boolean;
  device_flow_enabled?: boolean;
  private_channel_obfuscation?: boolean;
  social_sdk_terms_accepted?: boolean;
  connection_entrypoint_url?: string | null;
}

/** `POST /applications` answers the two secrets once, next to the application. */
export interface CreatedApplication extends PortalApplication {
  bot_token: string;
  client_secret: string;
}

/** The app's icon on the CDN, or null. */
export function iconUrl(app: Pick<PortalApplication, 'id' | 'icon'>, size = 128): string | null {
  return app.icon === null ? null : `/app-icons/${app.id}/${app.icon}.png?size=${String(size)}`;
}

/** The keys of `next` whose values differ from `base` (compared as JSON): what a PATCH sends. */
export function changedFields<T extends object>(base: T, next: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(next) as (keyof T)[]) {
    if (JSON.stringify(base[key]) !== JSON.stringify(next[key])) out[key] = next[key];
  }
  return out;
}

/** Reads a picked file as a data URI (the API's image fields take one). */
export function readAsDataUri(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      // readAsDataURL always yields a string.
      resolve(reader.result as string);
    };
    reader.onerror = () => {
      reject(reader.error ?? new Error('The file could not be read.'));
    };
    reader.readAsDataURL(file);
  });
}

/** Whether a string is an absolute http(s) URL (the API's HttpUrl rule). */
export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}
