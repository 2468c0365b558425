/**
 * The SDK's version. Its minor version follows the server's (docs/sdk.md#versioning): SDK 0.N.x
 * speaks to a Guildhall server 0.N and the four minors before it.
 *
 * @module
 */
export const SDK_VERSION = '0.1.0';
