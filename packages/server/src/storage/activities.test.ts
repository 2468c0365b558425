import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage } from '../../test/support/testStorage.js';
import { describeActivitiesContract } from './contract/activitiesContract.js';

describeDrivers('Activities storage contract: $driver', (driver) => {
  describeActivitiesContract(() => openTestStorage(driver, { prefix: 'activities' }));
});
