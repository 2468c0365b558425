/** Applications (developer apps and their bot users). */

/** Default install settings: the scopes and bot permissions an install link asks for. */
export interface InstallParams {
  scopes: string[];
  /** A decimal permission bitset. */
  permissions: string;
}

/** An installation context (0 guild, 1 user): enabled when present, with its default install. */
export interface IntegrationTypeSettings {
  installParams: InstallParams | null;
}
export type IntegrationTypesConfig = Partial<Record<'0' | '1', IntegrationTypeSettings>>;

export interface ApplicationRecord {
  id: string;
  name: string;
  description: string;
  icon: string | null;
  /** The cover image's hash (`app-icons/{id}/{hash}.{ext}` on the CDN): invites fall back to it. */
  coverImage: string | null;
  ownerId: string;
  botUserId: string | null;
  /** The full flag bitset (bits beyond 30 included). */
  flags: bigint;
  botPublic: boolean;
  botRequireCodeGrant: boolean;
  /** Hex-encoded Ed25519 public key. */
  verifyKey: string;
  /**
   * PKCS#8 DER of the Ed25519 private key, base64, sealed (domain/secretBox.ts,
   * SEALED_AS.applicationSigningKey); rows from before sealing hold it plain until the next start.
   */
  signingKey: string;
  clientSecretHash: string;
  redirectUris: string[];
  interactionsEndpointUrl: string | null;
  eventWebhooksUrl: string | null;
  tags: string[];
  createdAt: number;
  /** Marked by its owner as using large bot sharding (GET /users/@me/guilds `shard` rule). */
  largeBotSharding: boolean;
  /** A public OAuth2 client (no secret; PKCE; custom-scheme redirects). */
  publicClient: boolean;
  /** Approved by an operator for the identify.premium scope. */
  identifyPremiumApproved: boolean;
  /** Approved by an operator for the Social SDK: its pre-approval limits no longer apply. */
  socialApproved: boolean;
  /** Turned on by the owner: the device authorization grant (RFC 8628) is accepted. */
  deviceFlowEnabled: boolean;
  /** The webhook event types the app subscribes to (only these are enqueued). */
  eventWebhooksTypes: string[];
  /** 1 disabled, 2 enabled, 3 disabled by the platform. */
  eventWebhooksStatus: number;
  /** Where the platform's "Add App" button sends people instead of the authorize page. */
  customInstallUrl: string | null;
  /** The default install (guild context), as the platform's `install_params`. */
  installParams: InstallParams | null;
  integrationTypesConfig: IntegrationTypesConfig;
  /** The owner accepted the Social SDK terms: relationships.read needs no approval. */
  socialSdkTermsAccepted: boolean;
  /** The Social SDK's connection entrypoint URL (Social SDK settings). */
  connectionEntrypointUrl: string | null;
}

export type NewApplication = Omit<
  ApplicationRecord,
  | 'largeBotSharding'
  | 'publicClient'
  | 'identifyPremiumApproved'
  | 'socialApproved'
  | 'deviceFlowEnabled'
  | 'description'
  | 'icon'
  | 'coverImage'
  | 'flags'
  | 'botPublic'
  | 'botRequireCodeGrant'
  | 'redirectUris'
  | 'interactionsEndpointUrl'
  | 'eventWebhooksUrl'
  | 'tags'
  | 'eventWebhooksTypes'
  | 'eventWebhooksStatus'
  | 'customInstallUrl'
  | 'installParams'
  | 'integrationTypesConfig'
  | 'socialSdkTermsAccepted'
  | 'connectionEntrypointUrl'
> &
  Partial<ApplicationRecord>;

export type ApplicationPatch = Partial<
  Pick<
    ApplicationRecord,
    | 'name'
    | 'description'
    | 'icon'
    | 'coverImage'
    | 'flags'
    | 'botPublic'
    | 'botRequireCodeGrant'
    | 'clientSecretHash'
    | 'redirectUris'
    | 'interactionsEndpointUrl'
    | 'eventWebhooksUrl'
    | 'tags'
    | 'largeBotSharding'
    | 'publicClient'
    | 'identifyPremiumApproved'
    | 'socialApproved'
    | 'deviceFlowEnabled'
    | 'eventWebhooksTypes'
    | 'eventWebhooksStatus'
    | 'customInstallUrl'
    | 'installParams'
    | 'integrationTypesConfig'
    | 'socialSdkTermsAccepted'
    | 'connectionEntrypointUrl'
  >
>;

/** A rich presence asset (migration 0028): type 1 small, 2 large. */
export interface ApplicationAssetRecord {
  id: string;
  applicationId: string;
  type: 1 | 2;
  name: string;
  /** The uploaded format's extension (png, jpg, gif, webp); the blob is app-assets/{app}/{id}. */
  extension: string;
  createdAt: number;
}

export interface ApplicationAssetRepository {
  listByApplication(applicationId: string): Promise<ApplicationAssetRecord[]>;
  findById(applicationId: string, assetId: string): Promise<ApplicationAssetRecord | null>;
  /** @throws StorageConflictError when the application already has an asset of that name. */
  create(asset: ApplicationAssetRecord): Promise<void>;
  delete(applicationId: string, assetId: string): Promise<boolean>;
}

export interface ApplicationRepository {
  create(app: NewApplication): Promise<ApplicationRecord>;
  findById(id: string): Promise<ApplicationRecord | null>;
  findByBotUserId(botUserId: string): Promise<ApplicationRecord | null>;
  listByOwner(ownerId: string): Promise<ApplicationRecord[]>;
  /** The applications whose bot is a member of the guild (its guild installs), by id. */
  listInstalledInGuild(guildId: string): Promise<ApplicationRecord[]>;
  update(id: string, patch: ApplicationPatch): Promise<ApplicationRecord | null>;
  /**
   * How many distinct users the app reaches: members of the guilds its bot is in (the bot left
   * out) and users who installed it to their account (live user-install authorizations). One
   * query; docs/applications.md#user-count.
   */
  approximateUserCount(id: string): Promise<number>;
}
