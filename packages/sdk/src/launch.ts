/**
 * Launch registration and links into the platform client: how the desktop starts the game for a
 * `platform-<application id>:` link (an invite, a join), and the connected games settings.
 *
 * @module
 */
import { validationError } from './errors.js';
import type { ClientCore } from './core.js';

const SNOWFLAKE = /^\d{1,20}$/;

function checkApplicationId(operation: string, applicationId: string): void {
  if (typeof applicationId !== 'string' || !SNOWFLAKE.test(applicationId)) {
    throw validationError(
      `${operation}: ${JSON.stringify(applicationId)} is not an application id (a snowflake string).`,
    );
  }
}

export class LaunchArea {
  protected readonly core: ClientCore;

  constructor(core: ClientCore) {
    this.core = core;
  }

  /**
   * Registers `command` as what starts the game for `platform-<applicationId>:` links (Node on
   * Linux: an XDG desktop entry in `$XDG_DATA_HOME/applications`). Resolves false where the
   * platform cannot register one (a browser, macOS, Windows), with a log line saying why.
   */
  async registerLaunchCommand(applicationId: string, command: string): Promise<boolean> {
    const op = 'registerLaunchCommand';
    checkApplicationId(op, applicationId);
    if (typeof command !== 'string' || command.trim() === '') {
      throw validationError(`${op}: the command is empty; give the game's executable path.`);
    }
    if (/[\r\n\0]/.test(command)) {
      throw validationError(`${op}: the command may not contain line breaks or NUL characters.`);
    }
    // %u: the desktop passes the launching link (`platform-<id>:…`) to the game there.
    const withLink = /%[uU]/.test(command) ? command : `${command} %u`;
    return await this.core.platform.registerLaunch(applicationId, withLink, this.core.logger);
  }

  /**
   * The reference registers a Steam store application id as the launcher. This SDK has no
   * store integration: the platform reaches the game through its URL scheme, so the store
   * application's own URL (`steam://rungameid/<id>`) is registered as the launch command, run by
   * the desktop's URL opener (`xdg-open`).
   */
  async registerLaunchStoreApplication(
    applicationId: string,
    storeApplicationId: string,
  ): Promise<boolean> {
    const op = 'registerLaunchStoreApplication';
    checkApplicationId(op, applicationId);
    if (typeof storeApplicationId !== 'string' || !/^\d{1,20}$/.test(storeApplicationId)) {
      throw validationError(
        `${op}: ${JSON.stringify(storeApplicationId)} is not a store application id (digits, such as a Steam app id).`,
      );
    }
    return await this.core.platform.registerLaunch(
      applicationId,
      `xdg-open steam://rungameid/${storeApplicationId}`,
      this.core.logger,
    );
  }

  /** Opens the web client's connected games settings (who may message the player from games). */
  openConnectedGamesSettingsInPlatform(): Promise<void> {
    return this.core.platform.openUrl(
      `${this.core.webBase}/settings/connected-games`,
      this.core.logger,
    );
  }
}
