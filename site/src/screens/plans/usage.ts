/** The tenant's usage of its plan, as GET /plans answers it beside the catalogue. */
export interface PlanUsage {
  planId: string;
  pages: number;
  /** 0: unlimited. */
  pageLimit: number;
  mediaBytes: number;
  /** 0: unlimited. */
  mediaLimit: number;
}

/** UsageBar is one bar of the usage panel: its label, its text and how full it is (null: no limit, no bar). */
export interface UsageBar {
  label: string;
  text: string;
  used: number;
  max: number | null;
  /** full is true at or past the limit (new creates are refused). */
  full: boolean;
  /** fullText says what a full bar means. */
  fullText: string;
}

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** sizeText writes a size as the plan cards do: "1 GB", "250 MB", "3.5 KB". */
export function sizeText(bytes: number): string {
  let v = Math.max(0, bytes);
  let i = 0;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  if (i === 0) return `${v} bytes`;
  return `${String(Math.round(v * 10) / 10)} ${UNITS[i]}`;
}

/** usageBars turns the usage into the two bars: pages used of the limit, storage used of the quota. */
export function usageBars(u: PlanUsage): UsageBar[] {
  const pageWord = (n: number) => (n === 1 ? 'page' : 'pages');
  return [
    {
      label: 'Pages',
      text: u.pageLimit > 0 ? `${u.pages} of ${u.pageLimit} ${pageWord(u.pageLimit)}` : `${u.pages} ${pageWord(u.pages)} (unlimited)`,
      used: u.pages,
      max: u.pageLimit > 0 ? u.pageLimit : null,
      full: u.pageLimit > 0 && u.pages >= u.pageLimit,
      fullText: 'Limit reached: new pages are refused until you upgrade your plan or delete some.',
    },
    {
      label: 'Storage',
      text: u.mediaLimit > 0 ? `${sizeText(u.mediaBytes)} of ${sizeText(u.mediaLimit)}` : `${sizeText(u.mediaBytes)} (unlimited)`,
      used: u.mediaBytes,
      max: u.mediaLimit > 0 ? u.mediaLimit : null,
      full: u.mediaLimit > 0 && u.mediaBytes >= u.mediaLimit,
      fullText: 'Quota reached: new uploads are refused until you upgrade your plan or delete files.',
    },
  ];
}
