import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage } from '../../test/support/testStorage.js';
import { describeGatewaySessionsContract } from './contract/gatewaySessionsContract.js';

describeDrivers('Gateway sessions storage contract: $driver', (driver) => {
  describeGatewaySessionsContract(() => openTestStorage(driver, { prefix: 'gwsessions' }));
});
