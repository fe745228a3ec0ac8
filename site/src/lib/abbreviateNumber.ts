const UNITS = ['', 'K', 'M', 'B', 'T'];

/** abbreviateNumber renders counts compactly: 950 → "950", 1200 → "1.2K", 3400000 → "3.4M". */
export function abbreviateNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '0';
  const sign = value < 0 ? '-' : '';
  let n = Math.abs(value);
  if (n < 1000) return sign + String(Math.round(n * 10) / 10);
  let tier = 0;
  while (n >= 1000 && tier < UNITS.length - 1) {
    n /= 1000;
    tier++;
  }
  let rounded = Math.round(n * 10) / 10;
  // 999_950 rounds to "1000K"; carry it into the next unit instead.
  if (rounded >= 1000 && tier < UNITS.length - 1) {
    rounded = Math.round(rounded / 100) / 10;
    tier++;
  }
  return sign + String(rounded) + UNITS[tier];
}
