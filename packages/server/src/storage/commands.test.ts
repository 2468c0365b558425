import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage } from '../../test/support/testStorage.js';
import { describeCommandsContract } from './contract/commandsContract.js';

describeDrivers('Commands storage contract: $driver', (driver) => {
  describeCommandsContract(() => openTestStorage(driver, { prefix: 'commands' }));
});
