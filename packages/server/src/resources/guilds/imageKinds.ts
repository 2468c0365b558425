/** The blob folders of guild images, served back by the image routes (system/routes.ts). */
export const GUILD_IMAGE_KINDS = { icon: 'icons', banner: 'banners', splash: 'splashes' } as const;

export type GuildImageField = keyof typeof GUILD_IMAGE_KINDS;

/** Names a guild image's blob: `{kind}/{guild_id}/{hash}.{ext}`. */
export const guildImageKey =
  (field: GuildImageField, guildId: string) => (hash: string, extension: string) =>
    `${GUILD_IMAGE_KINDS[field]}/${guildId}/${hash}.${extension}`;
