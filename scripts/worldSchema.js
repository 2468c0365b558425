/**
 * Writes packages/server/world.schema.json, the world file's JSON Schema, from the loader's own
 * schema (packages/server/src/control/worldSchema.ts). Run after changing it (a test checks the
 * file matches):
 *
 *   npx tsc -b && node scripts/worldSchema.js && npx prettier --write packages/server/world.schema.json
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { worldJsonSchema } from '../packages/server/dist/control/worldSchema.js';

const path = fileURLToPath(import.meta.resolve('../packages/server/world.schema.json'));
writeFileSync(path, `${JSON.stringify(worldJsonSchema(), null, 2)}\n`);
