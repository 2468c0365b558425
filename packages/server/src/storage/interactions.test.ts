import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage } from '../../test/support/testStorage.js';
import { describeInteractionsContract } from './contract/interactionsContract.js';

describeDrivers('Interactions storage contract: $driver', (driver) => {
  describeInteractionsContract(() => openTestStorage(driver, { prefix: 'interactions' }));
});
