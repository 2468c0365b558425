import { useEffect, useRef, useState } from 'react';
import '../../styles/activities.css';
import { errorMessage } from '../../lib/api.js';
import { useClient, useClientState } from '../context.js';
import { createAbilities, participantsOf } from './abilities.js';
import { loadShelfNames } from './ActivityLauncher.js';
import { leaveActivity, proxyTicket, type ActivityInstance } from './api.js';
import { askWith, QuestionDialog, type Question } from './FrameDialogs.js';
import { FrameHost } from './frameProtocol.js';
import { FRAME_ALLOW, FRAME_SANDBOX, frameUrl } from './frameUrl.js';
import { frameClosed, joinDelivered } from './state.js';
import { sdkGuildMember, sdkRelationships, sdkUser, sdkVoiceStates } from './sdkShapes.js';
import { followSpeaking } from './speakingFeed.js';

/** How many CAPTURE_LOG lines the console keeps. */
const LOG_LINES = 200;

/** The open activity, above the channel view (nothing when none is open). */
export function ActivityDock() {
  const open = useClientState((s) => s.activities.open);
  const instance = useClientState((s) =>
    s.activities.open === null ? undefined : s.activities.instances[s.activities.open],
  );
  if (open === null || instance === undefined) return null;
  return <ActivityFrame key={instance.instance_id} instance={instance} />;
}

/**
 * One activity's frame: the relay on its activity origin, the frame protocol (frameProtocol.ts)
 * over postMessage with the origin and source checked both ways, and the dialogs the frame asks
 * for (consent, external links). Leaving closes it.
 */
function ActivityFrame({ instance }: { instance: ActivityInstance }) {
  const { gateway, store } = useClient();
  const app = useClientState((s) => s.activities.applications[instance.application_id]);
  const iframe = useRef<HTMLIFrameElement>(null);
  const hostRef = useRef<FrameHost | null>(null);
  const [frameId] = useState(() => crypto.randomUUID());
  const [question, setQuestion] = useState<Question | null>(null);
  const [logs, setLogs] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const origin = instance.activity_origin;
  const channelId = instance.location.channel_id;
  const guildId = instance.location.guild_id ?? null;
  const instanceId = instance.instance_id;
  const known = app !== undefined;
  useEffect(() => {
    if (!known) loadShelfNames(store, channelId);
  }, [known, store, channelId]);
  // The proxy ticket the frame's address carries; the frame opens once it is had (or refused:
  // the activity then runs without proxy authentication).
  const [ticket, setTicket] = useState<{ value: string | null } | null>(null);
  const applicationId = instance.application_id;
  useEffect(() => {
    let current = true;
    proxyTicket(applicationId).then(
      (answer) => {
        if (current) setTicket({ value: answer.ticket });
      },
      () => {
        if (current) setTicket({ value: null });
      },
    );
    return () => {
      current = false;
    };
  }, [applicationId]);

  useEffect(() => {
    const ask = askWith(setQuestion);
    const abilities = createAbilities({
      store,
      gateway,
      applicationId: instance.application_id,
      instanceId,
      ask,
      frameSize: () => ({
        width: iframe.current?.clientWidth ?? 0,
        height: iframe.current?.clientHeight ?? 0,
      }),
      log: (level, message) => {
        setLogs((lines) => [...lines, `[${level}] ${message}`].slice(-LOG_LINES));
      },
      closed: () => {
        void leave();
      },
      channelId,
      guildId,
      location: { host: window.location.host, language: navigator.language },
    });
    const host = new FrameHost({
      context: {
        applicationId: instance.application_id,
        frameId,
        instanceId,
        channelId,
        guildId,
      },
      abilities,
      // Only to the activity's origin: a frame navigated elsewhere gets nothing.
      post: (message) => iframe.current?.contentWindow?.postMessage(message, origin),
    });
    hostRef.current = host;
    const onMessage = (event: MessageEvent) => {
      if (event.source !== iframe.current?.contentWindow || event.origin !== origin) return;
      host.receive(event.data);
    };
    window.addEventListener('message', onMessage);
    return () => {
      window.removeEventListener('message', onMessage);
      host.close();
      hostRef.current = null;
    };
    // One host per frame: the instance's changes reach it through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [frameId, origin]);

  // Participants joining and leaving.
  const participants = instance.participants;
  useEffect(() => {
    hostRef.current?.dispatch('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', {
      participants: participantsOf(store.get(), store.get().activities.instances[instanceId]),
    });
  }, [participants, store, instanceId]);

  // Voice states of the activity's channel.
  const voice = useClientState((s) => (guildId === null ? undefined : s.voiceStates[guildId]));
  const previous = useRef<Record<string, string>>({});
  useEffect(() => {
    if (guildId === null) return;
    const seen: Record<string, string> = {};
    for (const entry of sdkVoiceStates(store.get(), guildId, channelId)) {
      const key = JSON.stringify(entry);
      seen[entry.user.id] = key;
      if (previous.current[entry.user.id] !== key) {
        hostRef.current?.dispatch('VOICE_STATE_UPDATE', entry);
      }
    }
    previous.current = seen;
  }, [voice, guildId, channelId, store]);

  // Who speaks in the activity's voice channel (the gateway follows it: the client is in no call).
  const channelType = useClientState((s) => s.channels[channelId]?.type);
  useEffect(
    () =>
      followSpeaking(gateway, { guildId, channelId, channelType }, (evt, data) => {
        hostRef.current?.dispatch(evt, data);
      }),
    [gateway, guildId, channelId, channelType],
  );

  // The person's relationships (and their presences) and the person's own user.
  const relationships = useClientState((s) => s.relationships);
  const presences = useClientState((s) => s.presences);
  const seenRelationships = useRef<Record<string, string>>({});
  useEffect(() => {
    const seen: Record<string, string> = {};
    for (const entry of sdkRelationships(store.get())) {
      const key = JSON.stringify(entry);
      seen[entry.user.id] = key;
      if (seenRelationships.current[entry.user.id] !== key) {
        hostRef.current?.dispatch('RELATIONSHIP_UPDATE', entry);
      }
    }
    seenRelationships.current = seen;
  }, [relationships, presences, store]);
  // The person's member in the activity's guild (nickname, avatar).
  const member = useClientState((s) =>
    guildId === null || s.me === null ? undefined : s.members[guildId]?.[s.me.id],
  );
  useEffect(() => {
    if (guildId !== null && member !== undefined) {
      hostRef.current?.dispatch('CURRENT_GUILD_MEMBER_UPDATE', sdkGuildMember(guildId, member));
    }
  }, [member, guildId]);
  // An invite accepted while the frame is open (and subscribed): ACTIVITY_JOIN now.
  const join = useClientState((s) => s.activities.joins[instance.application_id]);
  useEffect(() => {
    if (join !== undefined && hostRef.current?.dispatch('ACTIVITY_JOIN', join) === true) {
      store.set((s) => ({ ...s, activities: joinDelivered(s.activities, join.applicationId) }));
    }
  }, [join, store]);
  const me = useClientState((s) => s.me);
  useEffect(() => {
    if (me !== null) hostRef.current?.dispatch('CURRENT_USER_UPDATE', sdkUser(me));
  }, [me]);

  const leave = async () => {
    setError(null);
    try {
      await leaveActivity(channelId, instanceId);
      store.set((s) => ({ ...s, activities: frameClosed(s.activities, instanceId) }));
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const name = app?.name ?? 'Activity';
  return (
    <section className="activity-dock" aria-label={`Activity: ${name}`}>
      <header className="activity-header">
        <h2>{name}</h2>
        <span className="muted">
          {instance.participants.length === 1
            ? '1 participant'
            : `${String(instance.participants.length)} participants`}
        </span>
        <ul className="activity-participants" aria-label="Participants">
          {instance.participants.map((p) => (
            <li key={p.id}>{p.nickname ?? p.global_name ?? p.username}</li>
          ))}
        </ul>
        <button
          type="button"
          onClick={() => {
            void leave();
          }}
        >
          Leave Activity
        </button>
      </header>
      {error === null ? null : (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      {ticket === null ? (
        <p className="activity-frame muted">Starting {name}…</p>
      ) : (
        <iframe
          ref={iframe}
          className="activity-frame"
          title={name}
          src={frameUrl(instance, {
            frameId,
            clientOrigin: window.location.origin,
            ticket: ticket.value,
          })}
          sandbox={FRAME_SANDBOX}
          allow={FRAME_ALLOW}
          referrerPolicy="no-referrer"
        />
      )}
      {logs.length === 0 ? null : (
        <details className="activity-console">
          <summary>Console ({logs.length})</summary>
          <pre>{logs.join('\n')}</pre>
        </details>
      )}
      {question === null ? null : <QuestionDialog question={question} />}
    </section>
  );
}
