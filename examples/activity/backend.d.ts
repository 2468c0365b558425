/** The example activity's backend (backend.js): its page, the SDK's build and the code exchange. */
export interface ActivityBackendOptions {
  clientId: string;
  clientSecret: string;
  /** The app's public key (hex): `/api/whoami` checks proxy authentication's headers with it. */
  publicKey?: string;
  /** The API base, such as http://127.0.0.1:8080/api/v10. */
  apiUrl: string;
  /** 0 picks a free port; 3000 by default (Vite's dev server, `npm run dev:web`, takes 5173). */
  port?: number;
  host?: string;
}

export function startActivityBackend(
  options: ActivityBackendOptions,
): Promise<{ port: number; close: () => Promise<void> }>;
