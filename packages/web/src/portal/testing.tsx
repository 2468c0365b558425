import { useState, type ReactNode } from 'react';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { ApplicationProvider } from './context.js';
import type { PortalApplication } from './model.js';

/** A JSON Response: the web tests' one (test/fetch.ts). */
export { json } from '../test/fetch.js';

/** An application as GET /applications/{id} answers it, with `overrides`. */
export function makeApp(overrides: Partial<PortalApplication> = {}): PortalApplication {
  return {
    id: '100000000000000001',
    name: 'Helper',
    icon: null,
    description: '',
    flags: 0,
    verify_key: 'ab'.repeat(32),
    bot_public: true,
    bot_require_code_grant: false,
    redirect_uris: [],
    interactions_endpoint_url: null,
    event_webhooks_url: null,
    event_webhooks_status: 1,
    event_webhooks_types: [],
    tags: [],
    approximate_user_count: 0,
    integration_types_config: { '0': {} },
    private_channel_obfuscation: false,
    social_sdk_terms_accepted: false,
    connection_entrypoint_url: null,
    ...overrides,
  };
}

/** Renders a settings page for `app`, keeping PATCH answers as the app like the layout does. */
export function AppHarness({ app, children }: { app: PortalApplication; children: ReactNode }) {
  const [current, setApp] = useState(app);
  const { hook } = memoryLocation({ path: `/applications/${app.id}/information` });
  return (
    <Router hook={hook}>
      <ApplicationProvider value={{ app: current, setApp }}>{children}</ApplicationProvider>
    </Router>
  );
}

/**
 * Stubs `fetch` with answers in order (the network boundary) and returns the mock, whose calls
 * give each request's url and init.
 */
export function stubFetch(...answers: (() => Response)[]) {
  const queue = [...answers];
  const fetch = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>(() => {
    const next = queue.shift();
    if (next === undefined) return Promise.reject(new Error('unexpected request'));
    return Promise.resolve(next());
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** The method, path and JSON body of the n-th request. */
export function requestOf(fetch: ReturnType<typeof stubFetch>, n: number) {
  const call = fetch.mock.calls[n];
  if (call === undefined) throw new Error(`no request ${String(n)}`);
  const [url, init] = call;
  return {
    method: init?.method,
    url,
    body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
  };
}
