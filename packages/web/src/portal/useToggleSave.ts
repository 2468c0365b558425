import { useState } from 'react';
import { ApiError, errorMessage } from '../lib/api.js';
import { patchApplication, useApplication } from './context.js';
import type { PortalApplication } from './model.js';

/** The longest wait (seconds) a switch waits out on a 429 before trying once more. */
const MAX_RETRY_WAIT = 10;

/**
 * Switches that save at once: each flip is one PATCH; the app is replaced by the answer, and a
 * refusal (the API's message) is kept by the field it was about until the next flip. Flipping
 * several switches quickly can meet the route's rate limit: a short wait is waited out once.
 */
export function useToggleSave() {
  const { app, setApp } = useApplication();
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const save = async (key: string, body: Partial<Record<keyof PortalApplication, unknown>>) => {
    setBusy(key);
    setErrors({});
    // A setting the answer does not echo (public_client, device_flow_enabled are written but not
    // read back by the server yet) keeps the value just saved.
    const keep = (answer: PortalApplication) => {
      const unread = Object.fromEntries(Object.entries(body).filter(([name]) => !(name in answer)));
      setApp({ ...answer, ...unread });
    };
    try {
      try {
        keep(await patchApplication(app.id, body));
      } catch (error) {
        const wait = error instanceof ApiError && error.status === 429 ? error.retryAfter : null;
        if (wait === null || wait === undefined || wait > MAX_RETRY_WAIT) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        keep(await patchApplication(app.id, body));
      }
    } catch (error) {
      setErrors({ [key]: errorMessage(error) });
    } finally {
      setBusy(null);
    }
  };
  return { app, busy, errors, save };
}
