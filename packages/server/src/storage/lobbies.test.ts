import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage } from '../../test/support/testStorage.js';
import { describeLobbiesContract } from './contract/lobbiesContract.js';

describeDrivers('Lobbies storage contract: $driver', (driver) => {
  describeLobbiesContract(() => openTestStorage(driver, { prefix: 'lobbies' }));
});
