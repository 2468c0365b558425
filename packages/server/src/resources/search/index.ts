/** @module resources/search: the public surface of message search and its indexer. */
export { createSearchIndexer, type SearchIndexer } from './indexer.js';
export { registerMessageSearchRoutes } from './routes.js';
export { createMessageSearchService } from './service.js';
export { searchModule } from './module.js';
