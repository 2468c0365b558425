import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage } from '../../test/support/testStorage.js';
import { describeRelationshipsContract } from './contract/relationshipsContract.js';

describeDrivers('Relationships storage contract: $driver', (driver) => {
  describeRelationshipsContract(() => openTestStorage(driver, { prefix: 'friends' }));
});
