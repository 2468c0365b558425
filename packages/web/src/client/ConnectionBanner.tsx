import { useEffect, useState } from 'react';
import type { GatewayStatus } from '../lib/gateway.js';
import { useClient } from './context.js';

const TEXT: Record<GatewayStatus, string | null> = {
  connecting: 'Connecting…',
  ready: null,
  reconnecting: 'Connection lost. Reconnecting…',
  closed: 'Disconnected. Reload the page to connect again.',
};

/** The gateway's state when it is not connected, announced politely. */
export function ConnectionBanner() {
  const { gateway } = useClient();
  const [status, setStatus] = useState<GatewayStatus>(gateway.status);
  useEffect(() => {
    setStatus(gateway.status);
    return gateway.onStatus(setStatus);
  }, [gateway]);
  const text = TEXT[status];
  return (
    <div
      className={text === null ? 'connection-banner hidden' : `connection-banner ${status}`}
      role="status"
    >
      {text}
    </div>
  );
}
