/** @module errors: ApiError from the catalogue, and the one error-to-response path. */
export { ApiError, invalidField, type ApiErrorOptions } from './ApiError.js';
export { RateLimitedError, toErrorResponse, type ErrorResponse } from './toErrorResponse.js';
export { fieldErrorTree } from './zodErrors.js';
