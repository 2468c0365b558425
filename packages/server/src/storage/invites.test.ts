import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage } from '../../test/support/testStorage.js';
import { describeInvitesContract } from './contract/invitesContract.js';

describeDrivers('Invites storage contract: $driver', (driver) => {
  describeInvitesContract(() => openTestStorage(driver, { prefix: 'invites' }));
});
