// Jest runs the ES-module suite as it is (no transform); timeouts for a platform that starts.
export default {
  testMatch: ['**/*.test.js'],
  transform: {},
  testTimeout: 30_000,
  maxWorkers: 1,
};
