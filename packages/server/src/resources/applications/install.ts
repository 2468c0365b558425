/** @module The default install settings of an application (PATCH fields to storage values). */
import type { ApplicationPatch, InstallParams } from '../../storage/index.js';
import type { InstallParamsInput, ModifyApplicationInput } from './schemas.js';

const installParams = (input: InstallParamsInput | null | undefined): InstallParams | null =>
  input == null ? null : { scopes: input.scopes, permissions: input.permissions };

/** The patch of `custom_install_url`, `install_params` and `integration_types_config`. */
export function installPatch(input: ModifyApplicationInput): ApplicationPatch {
  const patch: ApplicationPatch = {};
  if (input.custom_install_url !== undefined) patch.customInstallUrl = input.custom_install_url;
  if (input.install_params !== undefined) patch.installParams = installParams(input.install_params);
  const config = input.integration_types_config;
  if (config !== undefined) {
    patch.integrationTypesConfig = {};
    for (const key of ['0', '1'] as const) {
      const entry = config[key];
      // A key present (even null) enables the context; absent disables it.
      if (entry === undefined) continue;
      patch.integrationTypesConfig[key] = {
        installParams: installParams(entry?.oauth2_install_params),
      };
    }
  }
  return patch;
}
