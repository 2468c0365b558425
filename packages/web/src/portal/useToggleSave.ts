import { useState } from 'react';
import { errorMessage } from '../lib/api.js';
import { patchApplication, useApplication } from './context.js';
import type { PortalApplication } from './model.js';

/**
 * Switches that save at once: each flip is one PATCH; the app is replaced by the answer, and a
 * refusal (the API's message) is kept by the field it was about until the next flip.
 */
export function useToggleSave() {
  const { app, setApp } = useApplication();
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const save = async (key: string, body: Partial<Record<keyof PortalApplication, unknown>>) => {
    setBusy(key);
    setErrors({});
    try {
      setApp(await patchApplication(app.id, body));
    } catch (error) {
      setErrors({ [key]: errorMessage(error) });
    } finally {
      setBusy(null);
    }
  };
  return { app, busy, errors, save };
}
