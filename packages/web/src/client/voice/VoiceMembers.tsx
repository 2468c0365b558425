import type { ReactNode } from 'react';
import { ChannelType, type APIChannel, type APIGuildMember } from 'discord-api-types/v10';
import { useClientState } from '../context.js';
import { displayName } from '../messages/names.js';
import { UserAvatar } from '../social/UserAvatar.js';
import { CameraIcon, HeadphonesOffIcon, MicOffIcon } from '../ui/icons.js';
import { connectedTo, type VoiceStateEntry } from './voiceState.js';
import '../../styles/voice.css';

const NO_VOICE: Record<string, VoiceStateEntry> = {};
const NO_MEMBERS: Record<string, APIGuildMember> = {};

/**
 * Who is connected to a guild voice or stage channel, live (VOICE_STATE_UPDATE): avatar, name,
 * and their mute, deafen and camera flags; in a stage, the audience after the speakers.
 */
export function VoiceMembers({ guildId, channel }: { guildId: string; channel: APIChannel }) {
  const voice = useClientState((s) => s.voiceStates[guildId] ?? NO_VOICE);
  const members = useClientState((s) => s.members[guildId] ?? NO_MEMBERS);
  const users = useClientState((s) => s.users);
  const connected = connectedTo(voice, channel.id, (id) => displayName(users[id], members[id]));
  if (connected.length === 0) return null;
  const stage = channel.type === ChannelType.GuildStageVoice;
  return (
    <ul className="voice-members" aria-label={`Connected to ${channel.name ?? ''}`}>
      {connected.map(({ userId, name, state }) => {
        const user = users[userId];
        return (
          <li key={userId} className="voice-member">
            {user === undefined ? (
              <span className="social-avatar" aria-hidden="true">
                <span className="social-avatar-initial">?</span>
              </span>
            ) : (
              <UserAvatar user={user} />
            )}
            <span className="voice-member-name">{name}</span>
            <VoiceFlags state={state} stage={stage} />
          </li>
        );
      })}
    </ul>
  );
}

/** One flag: an icon with its words for assistive technology and as a tooltip. */
function Flag({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span className="voice-flag" role="img" aria-label={label} title={label}>
      {children}
    </span>
  );
}

function VoiceFlags({ state, stage }: { state: VoiceStateEntry; stage: boolean }) {
  // A moderator's mute or deafen is named as such: the person cannot undo it themselves.
  const muted = state.mute ? 'Server muted' : state.self_mute ? 'Muted' : null;
  const deafened = state.deaf ? 'Server deafened' : state.self_deaf ? 'Deafened' : null;
  return (
    <span className="voice-flags">
      {stage && state.suppress ? <span className="voice-flag-text">Listener</span> : null}
      {state.self_video ? (
        <Flag label="Camera on">
          <CameraIcon />
        </Flag>
      ) : null}
      {muted === null ? null : (
        <Flag label={muted}>
          <MicOffIcon />
        </Flag>
      )}
      {deafened === null ? null : (
        <Flag label={deafened}>
          <HeadphonesOffIcon />
        </Flag>
      )}
    </span>
  );
}
