import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage } from '../../test/support/testStorage.js';
import { describeWorkerLeasesContract } from './contract/workerLeasesContract.js';

describeDrivers('Worker leases storage contract: $driver', (driver) => {
  describeWorkerLeasesContract(() => openTestStorage(driver, { prefix: 'leases' }));
});
