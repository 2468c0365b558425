/**
 * @module appControl: the test controls wired into an app (control/, docs/testing.md): the
 * platform clock every dated rule reads, the hooks through which the gateway, the HTTP server
 * and the deliveries meet the faults and the log, the routes under `/_guildhall/v1/`, and the
 * run file through which `guildhall` commands reach a running server.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AdminCommand, AdminContext } from './adminCommand.js';
import type { AppOptions } from './appTypes.js';
import { controlEnabled, roleServes, type Config } from './config.js';
import { createControl, type ControlParts } from './control/index.js';
import { registerAdminCommandRoute } from './control/adminCommands.js';
import { deliveryFaultHook } from './control/deliveryFaults.js';
import { createGatewayHooks, gatewayNowPort } from './control/gatewayFaults.js';
import { registerHttpFaults } from './control/httpFaults.js';
import { registerControlRoutes } from './control/routes.js';
import { worldRoutes } from './control/routesWorlds.js';
import type { WorldState } from './control/worldTypes.js';
import { databaseIdentity, newRunToken, removeRunFile, writeRunFile } from './control/runFile.js';
import { createTokenFaults } from './control/tokenFaults.js';
import type { DeliveryFaultHook } from './delivery/faults.js';
import type { Revocations } from './events/revocations.js';
import type { Gateway, GatewayHooks } from './gateway/index.js';
import type { Storage } from './storage/index.js';

/** The controls of an app, and what its parts take from them. */
export interface AppControl {
  parts: ControlParts;
  gatewayHooks: GatewayHooks;
  deliveryFault: DeliveryFaultHook;
}

/** Builds the controls before the parts that use them (the clock first of all). */
export function createAppControl(deps: {
  config: Config;
  options: Pick<AppOptions, 'clock'>;
  logger: Logger;
}): AppControl {
  const recording = controlEnabled(deps.config);
  const parts = createControl({
    ...(deps.options.clock ? { base: deps.options.clock } : {}),
    recording,
    onError: (err) => {
      deps.logger.error({ err }, 'a wait fired by the platform clock failed');
    },
  });
  return {
    parts,
    gatewayHooks: createGatewayHooks({ faults: parts.faults, log: parts.log, recording }),
    deliveryFault: deliveryFaultHook(parts.faults),
  };
}

/** What an app does with its controls once listening and when closing. */
export interface AttachedControl {
  listened(baseUrl: string): Promise<void>;
  close(): Promise<void>;
  /** `worlds` whose reset also removes the faults, restores the clock and clears the log. */
  resetting(worlds: WorldState): WorldState;
}

/**
 * Hooks the faults and the log into the HTTP server, binds what faults do at once (gateway
 * sessions, tokens), and registers the routes: the controls when they are on, the operator
 * commands when the app was given them (`guildhall start`), which also writes the run file.
 */
export async function attachAppControl<TServices>(deps: {
  control: AppControl;
  config: Config;
  options: { adminCommands?: readonly AdminCommand<TServices>[] };
  http: FastifyInstance;
  gateway: Pick<Gateway, 'act'>;
  /** A storage whose transactions announce after commit (revocations). */
  storage: Storage;
  revocations: Pick<Revocations, 'revoke'>;
  app: () => AdminContext<TServices> & { worlds: WorldState };
}): Promise<AttachedControl> {
  const { control, config, http } = deps;
  const { clock, faults, log, recording } = control.parts;
  faults.bind({
    gatewayNow: gatewayNowPort(deps.gateway),
    ...createTokenFaults({ storage: deps.storage, clock, revocations: deps.revocations }),
  });
  registerHttpFaults(http, { faults, log, recording, clock, storage: deps.storage });
  const commands = deps.options.adminCommands;
  const serves = roleServes(config.role, 'api');
  const runToken = commands !== undefined && serves ? newRunToken() : null;
  const access = { adminTokenHash: config.adminTokenHash, runToken: () => runToken };
  if (controlEnabled(config)) {
    await registerControlRoutes(http, {
      control: control.parts,
      access,
      extend: [worldRoutes(() => deps.app().worlds)],
    });
  }
  if (commands !== undefined && serves) {
    registerAdminCommandRoute(http, { commands, context: deps.app, access });
  }
  return {
    async listened(baseUrl) {
      if (runToken === null) return;
      await writeRunFile(config.dataDir, {
        url: baseUrl,
        pid: process.pid,
        database: databaseIdentity(config.databaseUrl),
        token: runToken,
      });
    },
    async close() {
      if (runToken !== null) await removeRunFile(config.dataDir, runToken);
    },
    resetting: (worlds) => ({
      ...worlds,
      async reset() {
        faults.clear();
        await clock.restore();
        log.clear();
        await worlds.reset();
      },
    }),
  };
}
