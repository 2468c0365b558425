import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage } from '../../test/support/testStorage.js';
import { describeGroupCommitContract } from './contract/groupCommitContract.js';

describeDrivers('Group commit contract: $driver', (driver) => {
  describeGroupCommitContract((groupCommit) =>
    openTestStorage(driver, { prefix: 'groupcommit', groupCommit }),
  );
});
