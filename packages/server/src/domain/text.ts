/** Length in characters (code points), as the platform counts them. */
export const charCount = (value: string): number => {
  // Only astral characters take two UTF-16 units; count each pair once.
  const pairs = value.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g);
  return value.length - (pairs?.length ?? 0);
};
