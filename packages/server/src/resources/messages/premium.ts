/**
 * Premium buttons (style 6): a message's button that offers one of the sending application's
 * SKUs. The components resource checks the button's shape without storage; this checks that
 * its `sku_id` names a SKU of the application that sends it (50057 otherwise).
 */
import { ApiError } from '../../errors/index.js';
import type { Repositories } from '../../storage/index.js';

const BUTTON = 2;
const PREMIUM = 6;

/** The `sku_id`s of the premium buttons in validated components, at any depth. */
export function premiumSkuIds(components: readonly unknown[]): string[] {
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (record['type'] === BUTTON && record['style'] === PREMIUM) {
      if (typeof record['sku_id'] === 'string') found.push(record['sku_id']);
    }
    Object.values(record).forEach(visit);
  };
  visit(components);
  return found;
}

/** Refuses a premium button whose SKU the sending application does not sell. */
export async function assertPremiumSkus(
  repos: Pick<Repositories, 'skus'>,
  applicationId: string | null,
  components: readonly unknown[],
): Promise<void> {
  for (const skuId of new Set(premiumSkuIds(components))) {
    const sku = await repos.skus.findById(skuId);
    if (applicationId === null || sku?.applicationId !== applicationId) {
      throw new ApiError('INVALID_SKU');
    }
  }
}
