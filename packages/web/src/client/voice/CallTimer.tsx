import { useEffect, useState } from 'react';
import { useClientState } from '../context.js';
import { callDuration, isoDuration } from './voiceState.js';

/** Now (ms), moving on every `intervalMs` while the component is shown. */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, intervalMs);
    return () => {
      clearInterval(timer);
    };
  }, [intervalMs]);
  return now;
}

/**
 * "In call for 12:34" under a voice channel while a call goes on there: the channel's
 * `voice_start_time` (CHANNEL_INFO, then VOICE_CHANNEL_START_TIME_UPDATE when it starts or ends).
 */
export function CallTimer({ channelId }: { channelId: string }) {
  const start = useClientState((s) => s.voiceStartTimes[channelId] ?? null);
  if (start === null) return null;
  return <Ticking start={start} />;
}

function Ticking({ start }: { start: number }) {
  const now = useNow(1_000);
  return (
    <p className="voice-call-time">
      In call for <time dateTime={isoDuration(start, now)}>{callDuration(start, now)}</time>
    </p>
  );
}
