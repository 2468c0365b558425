import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage } from '../../test/support/testStorage.js';
import { describeGuildsContract } from './contract/guildsContract.js';
import { describeStorageContract } from './contract/storageContract.js';

describeDrivers('Storage contract: $driver', (driver) => {
  describeStorageContract(() => openTestStorage(driver, { prefix: 'contract' }));
});
describeDrivers('Guilds storage contract: $driver', (driver) => {
  describeGuildsContract(() => openTestStorage(driver, { prefix: 'contract' }));
});
