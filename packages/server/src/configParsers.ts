/** @module configParsers: the parsers settings share (configSettings.ts, configDeploySettings.ts). */

export function integer(min: number, max: number) {
  return (raw: string) => {
    if (!/^\d+$/.test(raw)) return undefined;
    const value = Number(raw);
    return value >= min && value <= max ? value : undefined;
  };
}

export function onOff(raw: string): boolean | undefined {
  if (['on', 'true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['off', 'false', '0', 'no'].includes(raw.toLowerCase())) return false;
  return undefined;
}
