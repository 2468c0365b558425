/**
 * The platform's wire objects as the SDK reads them (docs/social*.md, docs/lobbies.md): only the
 * fields the SDK uses; everything else passes through untouched.
 *
 * @module
 */

export interface WireUser {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
  bot?: boolean;
  /** Set for a provisional account (flag 1 << 0 of `flags`… read through `isProvisional`). */
  flags?: number;
  public_flags?: number;
  premium_type?: number;
}

export interface WireActivity {
  name: string;
  type: number;
  state?: string | null;
  details?: string | null;
  details_url?: string | null;
  state_url?: string | null;
  status_display_type?: number | null;
  application_id?: string;
  timestamps?: { start?: number; end?: number };
  assets?: Record<string, string | undefined>;
  party?: { id?: string; size?: [number, number]; privacy?: number };
  secrets?: { join?: string };
  buttons?: (string | { label: string; url: string })[];
  metadata?: { button_urls?: string[] };
  supported_platforms?: string[];
  parent_application_id?: string;
}

export interface WirePresence {
  user: { id: string } & Partial<WireUser>;
  status: string;
  activities: WireActivity[];
  client_status?: Record<string, string>;
  guild_id?: string;
}

export interface WireRelationship {
  id: string;
  type: number;
  user: WireUser;
  nickname?: string | null;
  since?: string;
  /** Present for a game relationship (scoped to one application). */
  application_id?: string;
  is_spam_request?: boolean;
}

export interface WireChannel {
  id: string;
  type: number;
  name?: string | null;
  recipients?: WireUser[];
  last_message_id?: string | null;
  application_id?: string;
  owner_id?: string;
  guild_id?: string;
  position?: number;
  parent_id?: string | null;
}

export interface WireMessage {
  id: string;
  channel_id: string;
  type?: number;
  content: string;
  author: WireUser;
  timestamp?: string;
  edited_timestamp?: string | null;
  lobby_id?: string;
  application_id?: string;
  metadata?: Record<string, string>;
  moderation_metadata?: Record<string, string>;
  activity?: { type: number; party_id?: string };
  lobby_member?: { additional_name?: string };
  flags?: number;
  /** Only on the disclosure the client injects itself (disclosure.ts), never from the server. */
  disclosure_type?: number;
}

export interface WireLobbyMember {
  id: string;
  metadata?: Record<string, string> | null;
  flags?: number;
  connected?: boolean;
  additional_name?: string | null;
  user?: WireUser;
}

export interface WireLobby {
  id: string;
  application_id: string;
  metadata?: Record<string, string> | null;
  members: WireLobbyMember[];
  linked_channel?: WireChannel | null;
  flags?: number;
}

export interface WireReady {
  session_id: string;
  resume_gateway_url?: string;
  user: WireUser;
  application?: { id: string; flags?: number };
  relationships?: WireRelationship[];
  private_channels?: WireChannel[];
  lobbies?: WireLobby[];
  presences?: WirePresence[];
}
