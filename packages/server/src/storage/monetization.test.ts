import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage } from '../../test/support/testStorage.js';
import { describeMonetizationContract } from './contract/monetizationContract.js';

describeDrivers('Monetization storage contract: $driver', (driver) => {
  describeMonetizationContract(() => openTestStorage(driver, { prefix: 'monetization' }));
});
