/**
 * Voice regions (GET /voice/regions, GET /guilds/{id}/regions). A Guildhall server carries its
 * voice itself: one region, this server, always the optimal one (docs/voice.md#regions).
 */

/** A voice region on the wire (VoiceRegionResponse). */
export interface VoiceRegionWire {
  id: string;
  name: string;
  optimal: boolean;
  deprecated: boolean;
  custom: boolean;
}

/** The id of the one region: voice runs on the server that serves the API. */
export const LOCAL_REGION_ID = 'guildhall';

/** The regions a guild's voice channels may name (`rtc_region`), best first. */
export function voiceRegions(): VoiceRegionWire[] {
  return [
    { id: LOCAL_REGION_ID, name: 'Guildhall', optimal: true, deprecated: false, custom: true },
  ];
}
