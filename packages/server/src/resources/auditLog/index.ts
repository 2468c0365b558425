/** @module resources/auditLog: the audit log, and how every other resource writes to it. */
export { diffChanges, snapshotChanges, type AuditChange } from './changes.js';
export { registerAuditLogRoutes } from './routes.js';
export { createAuditLogService, recordAudit, recordChanges } from './service.js';
export { auditLogModule } from './module.js';
