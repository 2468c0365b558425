/**
 * The relationship test fixture: a server per driver (the worker's files share it), and per test (its clock set well
 * after the people's accounts were made, so no request is flagged as spam unless a test says so)
 * a developer with an application, two more people, and the requests the tests make.
 *
 * @module
 */
import type { manualClock } from '../../src/domain/clock.js';
import { generateToken, hashSecret } from '../../src/domain/credentials.js';
import { DAY_MS } from '../../src/domain/time.js';
import type { Driver } from './drivers.js';
import { recordDispatches } from './dispatchRecorder.js';
import { perTest, sharedClock, uniqueName, useFileServer } from './fileServer.js';
import { seedDeveloper, type TestServer } from './testServer.js';
import { apiRequest } from './inject.js';

/** When the fixture's people register. */
export const REGISTERED_AT = Date.UTC(2026, 0, 1);
/** When the tests run: 30 days later, so the people's accounts are not new. */
export const TESTS_AT = REGISTERED_AT + 30 * DAY_MS;

interface Person {
  userId: string;
  token: string;
  username: string;
}

interface State {
  server: TestServer;
  clock: ReturnType<typeof manualClock>;
  dev: Awaited<ReturnType<typeof seedDeveloper>>;
  ada: Person;
  bob: Person;
}

export function useRelationshipFixture(driver: Driver) {
  const clock = sharedClock(`relationship:${driver}`, REGISTERED_AT);
  const shared = useFileServer({ storage: driver, clock }, 'relationship');
  /** The dispatch watches this test opened, stopped after it. */
  const watches: { stop(): void }[] = [];

  /** A new person named after `name` (made unique: uniqueName). */
  const register = async (server: TestServer, name: string): Promise<Person> => {
    const username = uniqueName(name);
    const session = await server.app.services.auth.register({
      email: `${username}@example.test`,
      username,
      password: 'correct horse battery',
    });
    return { userId: session.user_id, token: session.token, username };
  };

  const logIn = async (server: TestServer, username: string): Promise<Person> => {
    const session = await server.app.services.auth.login({
      login: username,
      password: 'correct horse battery',
    });
    return { userId: session.user_id, token: session.token, username };
  };

  const current = perTest(
    async (): Promise<State> => {
      clock.set(REGISTERED_AT);
      const { server } = shared;
      const dev = await seedDeveloper(server.app, uniqueName('dev'), 'dev app');
      const registered = { ada: await register(server, 'ada'), bob: await register(server, 'bob') };
      clock.set(TESTS_AT);
      // Sessions from registration have expired by now: log in again.
      const ada = await logIn(server, registered.ada.username);
      const bob = await logIn(server, registered.bob.username);
      return { server, clock, dev, ada, bob };
    },
    () => {
      for (const watch of watches.splice(0)) watch.stop();
    },
  );

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    options: { auth: string; payload?: unknown },
  ) => apiRequest(current().server.app, `${method} ${url}`, options);

  /** A Bearer token of the developer's application for a user, with these scopes. */
  const bearer = async (userId: string, scopes: string[], applicationId?: string) => {
    const { server, clock, dev } = current();
    const token = generateToken(userId, clock.now());
    await server.app.storage.tokens.create({
      hash: hashSecret(token),
      kind: 'bearer',
      userId,
      applicationId: applicationId ?? dev.applicationId,
      scopes,
      createdAt: clock.now(),
      expiresAt: null,
    });
    return `Bearer ${token}`;
  };

  /** The user authorizes the developer's application (so it "uses" it). */
  const authorize = (userId: string, scopes = ['identify', 'relationships.read']) =>
    current().server.app.services.oauth.issueTokens({
      userId,
      applicationId: current().dev.applicationId,
      scopes,
      refresh: false,
    });

  return {
    get server() {
      return current().server;
    },
    get clock() {
      return current().clock;
    },
    get dev() {
      return current().dev;
    },
    get ada() {
      return current().ada;
    },
    get bob() {
      return current().bob;
    },
    /** A new person named after `name` (made unique: uniqueName). */
    register: (name: string) => register(current().server, name),
    call,
    bearer,
    authorize,
    /** Watches the dispatches of the server from now to the end of the test. */
    watch: async () => {
      const watch = await recordDispatches(current().server.app);
      watches.push(watch);
      return watch;
    },
  };
}
